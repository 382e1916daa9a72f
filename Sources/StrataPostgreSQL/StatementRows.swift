#if PostgreSQL
import PostgresNIO

/// A statement's rows as postgres-nio hands them over: straight for an unnamed statement, through
/// its prepared-statement API's row mapping for a named one.
@usableFromInline
enum StatementRows: AsyncSequence, Sendable {
  case unnamed(PostgresRowSequence)
  case named(AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>)

  @usableFromInline
  enum AsyncIterator: AsyncIteratorProtocol {
    case unnamed(PostgresRowSequence.AsyncIterator)
    case named(AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>.AsyncIterator)

    @usableFromInline
    mutating func next() async throws -> PostgresRow? {
      switch self {
      case .unnamed(var iterator):
        defer { self = .unnamed(iterator) }
        return try await iterator.next()
      case .named(var iterator):
        defer { self = .named(iterator) }
        return try await iterator.next()
      }
    }
  }

  @usableFromInline
  func makeAsyncIterator() -> AsyncIterator {
    switch self {
    case .unnamed(let rows): .unnamed(rows.makeAsyncIterator())
    case .named(let rows): .named(rows.makeAsyncIterator())
    }
  }
}
#endif
