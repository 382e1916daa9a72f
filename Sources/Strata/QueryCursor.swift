import GRDB
import StrataCore

/// A cursor over the rows of a statement, decoded one at a time as they are stepped.
///
/// Use it for results too large to hold in an array. Like every GRDB cursor it is valid only
/// inside the database access that created it (the `read` or `write` closure).
///
/// ```swift
/// try database.read { db in
///   let players = try Player.all.fetchCursor(db)
///   while let player = try players.next() { … }
/// }
/// ```
public final class QueryCursor<Element>: Cursor {
  private let database: Database
  private var pending: ArraySlice<QueryBatch>
  private var current: BatchCursor<Element>?
  private let decodeRow: (inout SQLiteQueryDecoder) throws -> Element

  init(
    database: Database, batches: [QueryBatch],
    decodeRow: @escaping (inout SQLiteQueryDecoder) throws -> Element
  ) {
    self.database = database
    self.pending = batches[...]
    self.decodeRow = decodeRow
  }

  public func next() throws -> Element? {
    while true {
      if let current, let element = try current.next() {
        return element
      }
      guard let batch = pending.popFirst() else {
        current = nil
        return nil
      }
      // A cursor gets a statement of its own: the statement cache may hand the same one to a
      // query run while this cursor is being iterated.
      let statement = try database.makeStatement(sql: batch.sql)
      current = try BatchCursor(statement: statement, batch: batch, decodeRow: decodeRow)
    }
  }
}
