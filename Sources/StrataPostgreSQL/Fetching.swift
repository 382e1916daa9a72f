#if PostgreSQL
import StrataCore

// The same forms as on SQLite, asynchronous. Each fetch has two forms: one for a single result type (`[Player]`, `[Int]`) and one for a
// tuple of them (`[(Game, Player?)]`). The single form is what generic code resolves to.

extension QueryStatement {
  /// Runs the statement, ignoring any rows it returns.
  ///
  /// ```swift
  /// try await database.write { db in
  ///   try await Player.find(id).update { $0.score += 1 }.execute(db)
  /// }
  /// ```
  @inlinable
  public nonisolated(nonsending) func execute(_ db: PostgreSQLConnection) async throws {
    try await PostgreSQLExecutor.execute(self, on: db)
  }

  /// Runs the statement and decodes every row: `[Player]`, `[String]`.
  @inlinable
  public nonisolated(nonsending) func fetchAll(_ db: PostgreSQLConnection) async throws -> [QueryValue.QueryOutput]
  where QueryValue: QueryRepresentable {
    try await PostgreSQLExecutor.fetchAll(self, on: db) { decoder in try decoder.decode(QueryValue.self) }
  }

  /// Runs the statement and decodes its first row, or returns nil when there is none.
  @inlinable
  public nonisolated(nonsending) func fetchOne(_ db: PostgreSQLConnection) async throws -> QueryValue.QueryOutput?
  where QueryValue: QueryRepresentable {
    try await PostgreSQLExecutor.fetchOne(self, on: db) { decoder in try decoder.decode(QueryValue.self) }
  }

  // Two- and three-column tuples, the common ones, also have forms without a parameter pack:
  // the compiler specializes them fully, which decoding a pack does not get (1.6x slower).

  /// Runs the statement and decodes every row as a pair: `[(String, Int)]`.
  @inlinable
  public nonisolated(nonsending) func fetchAll<A: QueryRepresentable, B: QueryRepresentable>(
    _ db: PostgreSQLConnection
  ) async throws -> [(A.QueryOutput, B.QueryOutput)] where QueryValue == (A, B) {
    try await PostgreSQLExecutor.fetchAll(self, on: db) { decoder in
      (try decoder.decode(A.self), try decoder.decode(B.self))
    }
  }

  /// Runs the statement and decodes every row as a triple.
  @inlinable
  public nonisolated(nonsending) func fetchAll<A: QueryRepresentable, B: QueryRepresentable, C: QueryRepresentable>(
    _ db: PostgreSQLConnection
  ) async throws -> [(A.QueryOutput, B.QueryOutput, C.QueryOutput)] where QueryValue == (A, B, C) {
    try await PostgreSQLExecutor.fetchAll(self, on: db) { decoder in
      (try decoder.decode(A.self), try decoder.decode(B.self), try decoder.decode(C.self))
    }
  }

  /// Runs the statement and decodes every row as a tuple: `[(Game, Player?)]`.
  @inlinable
  public nonisolated(nonsending) func fetchAll<each Value: QueryRepresentable>(
    _ db: PostgreSQLConnection
  ) async throws -> [(repeat (each Value).QueryOutput)] where QueryValue == (repeat each Value) {
    try await PostgreSQLExecutor.fetchAll(self, on: db) { decoder in
      (repeat try decoder.decode((each Value).self))
    }
  }

  /// Runs the statement and decodes its first row as a pair, or returns nil when there is none.
  @inlinable
  public nonisolated(nonsending) func fetchOne<A: QueryRepresentable, B: QueryRepresentable>(
    _ db: PostgreSQLConnection
  ) async throws -> (A.QueryOutput, B.QueryOutput)? where QueryValue == (A, B) {
    try await PostgreSQLExecutor.fetchOne(self, on: db) { decoder in
      (try decoder.decode(A.self), try decoder.decode(B.self))
    }
  }

  /// Runs the statement and decodes its first row as a triple, or returns nil when there is none.
  @inlinable
  public nonisolated(nonsending) func fetchOne<A: QueryRepresentable, B: QueryRepresentable, C: QueryRepresentable>(
    _ db: PostgreSQLConnection
  ) async throws -> (A.QueryOutput, B.QueryOutput, C.QueryOutput)? where QueryValue == (A, B, C) {
    try await PostgreSQLExecutor.fetchOne(self, on: db) { decoder in
      (try decoder.decode(A.self), try decoder.decode(B.self), try decoder.decode(C.self))
    }
  }

  /// Runs the statement and decodes its first row as a tuple, or returns nil when there is none.
  @inlinable
  public nonisolated(nonsending) func fetchOne<each Value: QueryRepresentable>(
    _ db: PostgreSQLConnection
  ) async throws -> (repeat (each Value).QueryOutput)? where QueryValue == (repeat each Value) {
    try await PostgreSQLExecutor.fetchOne(self, on: db) { decoder in
      (repeat try decoder.decode((each Value).self))
    }
  }
}

// A statement that selects nothing explicitly returns whole rows: of `From`, or of `From` and
// each joined table, in join order. The forms without joins are spelled out because the
// compiler does not reduce `(From, repeat each J)` to `From` for an empty pack.

extension Select where Columns == (), Joins == () {
  /// Runs the statement and decodes every row: `[Player]`.
  @inlinable
  public nonisolated(nonsending) func fetchAll(_ db: PostgreSQLConnection) async throws -> [From.QueryOutput] {
    try await PostgreSQLExecutor.fetchAll(self, on: db) { decoder in try decoder.decode(From.self) }
  }

  /// Runs the statement and decodes its first row, or returns nil when there is none.
  @inlinable
  public nonisolated(nonsending) func fetchOne(_ db: PostgreSQLConnection) async throws -> From.QueryOutput? {
    try await PostgreSQLExecutor.fetchOne(self, on: db) { decoder in try decoder.decode(From.self) }
  }
}

extension Select where Columns == (), Joins: Table {
  /// Runs the statement and decodes every row as the table and the one table joined to it:
  /// `[(Game, Player?)]`. (Without a parameter pack, so that it is specialized fully.)
  @inlinable
  public nonisolated(nonsending) func fetchAll(_ db: PostgreSQLConnection) async throws -> [(From.QueryOutput, Joins.QueryOutput)] {
    try await PostgreSQLExecutor.fetchAll(self, on: db) { decoder in
      (try decoder.decode(From.self), try decoder.decode(Joins.self))
    }
  }
}

extension Select where Columns == () {
  /// Runs the statement and decodes every row as the table and its joined tables:
  /// `[(Game, Player?)]`.
  @inlinable
  public nonisolated(nonsending) func fetchAll<J1: Table, each J: Table>(_ db: PostgreSQLConnection) async throws -> [(From.QueryOutput, J1.QueryOutput, repeat (each J).QueryOutput)]
  where Joins == (J1, repeat each J) {
    try await PostgreSQLExecutor.fetchAll(self, on: db) { decoder in
      (try decoder.decode(From.self), try decoder.decode(J1.self), repeat try decoder.decode((each J).self))
    }
  }

  /// Runs the statement and decodes its first row as the table and its joined tables, or
  /// returns nil when there is none.
  @inlinable
  public nonisolated(nonsending) func fetchOne<J1: Table, each J: Table>(_ db: PostgreSQLConnection) async throws -> (From.QueryOutput, J1.QueryOutput, repeat (each J).QueryOutput)?
  where Joins == (J1, repeat each J) {
    try await PostgreSQLExecutor.fetchOne(self, on: db) { decoder in
      (try decoder.decode(From.self), try decoder.decode(J1.self), repeat try decoder.decode((each J).self))
    }
  }
}

extension Select {
  /// The number of rows the statement returns, counted by the database:
  /// `SELECT count(*) FROM … WHERE …` (see `Select.countingRows()`).
  @inlinable
  public nonisolated(nonsending) func fetchCount(_ db: PostgreSQLConnection) async throws -> Int {
    try await countingRows().fetchOne(db) ?? 0
  }
}

extension Table {
  /// Every row of the table (under its default scope).
  @inlinable
  public nonisolated(nonsending) static func fetchAll(_ db: PostgreSQLConnection) async throws -> [QueryOutput] {
    try await all.fetchAll(db)
  }

  /// A row of the table (under its default scope), or nil when there is none.
  @inlinable
  public nonisolated(nonsending) static func fetchOne(_ db: PostgreSQLConnection) async throws -> QueryOutput? {
    try await all.fetchOne(db)
  }

  /// The number of rows in the table (under its default scope).
  @inlinable
  public nonisolated(nonsending) static func fetchCount(_ db: PostgreSQLConnection) async throws -> Int {
    try await all.fetchCount(db)
  }
}

extension PostgreSQLConnection {
  /// Inserts the rows the closure lists, in order, one `INSERT` per run of rows of the same
  /// table.
  ///
  /// ```swift
  /// try await database.write { db in
  ///   try await db.seed {
  ///     Game.Draft(id: gameID, title: "Family gin rummy")
  ///     Player.Draft(gameID: gameID, name: "Blob", score: 20)
  ///   }
  /// }
  /// ```
  public nonisolated(nonsending) func seed(@SeedsBuilder _ rows: () -> Seeds) async throws {
    try await rows().execute(self)
  }
}
#endif
