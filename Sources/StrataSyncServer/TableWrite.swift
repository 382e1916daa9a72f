#if SyncServer
import StrataCore
import StrataSyncCore

/// What a merged row does to its table on the server: an upsert of its values, or a delete.
/// Writes of one table with the same columns go in one statement.
struct TableWrite {
  var row: RowID
  var table: ServerTable
  var key: QueryBinding
  /// The values to write, by column in the table's order; nil for a delete.
  var values: [(column: String, value: QueryBinding)]?

  /// The write of a merged row: its resolved values, each as the server's column takes it.
  init(_ row: StoredRow, table: ServerTable, values: [String: StoredValue]) throws {
    guard let key = table.keyKind.binding(forReplicaValue: row.state.key) else {
      throw SyncRefusal(.unprocessableContent, "the key \(row.id.key) does not fit the server's column \(table.name).\(table.key)")
    }
    self.row = row.id
    self.table = table
    self.key = key
    guard !row.state.isDeleted else { return }
    var written: [(String, QueryBinding)] = []
    for column in table.columns {
      guard let value = values[column.name] else { continue }
      guard let binding = column.kind.binding(forReplicaValue: value) else {
        throw SyncRefusal(
          .unprocessableContent,
          "the row \(row.id) has \(value) in \(column.name), which the server's column \(table.name).\(column.name) does not hold (\(column.kind)); nothing was written")
      }
      written.append((column.name, binding))
    }
    self.values = written
  }

  /// Whether `other` can go in the same statement.
  func batches(with other: TableWrite) -> Bool {
    table.name == other.table.name && values?.map(\.column) == other.values?.map(\.column)
  }

  /// The statements that make `writes` (of one table, the same columns): one per chunk, each
  /// within PostgreSQL's 65,535 parameters.
  static func statements(_ writes: [TableWrite]) -> [SQLQuery<()>] {
    guard let first = writes.first else { return [] }
    let perRow = (first.values?.count ?? 0) + 1
    let chunk = max(1, 30_000 / perRow)
    return stride(from: 0, to: writes.count, by: chunk).map { start in
      statement(Array(writes[start..<min(start + chunk, writes.count)]))
    }
  }

  private static func statement(_ writes: [TableWrite]) -> SQLQuery<()> {
    let first = writes[0]
    var fragment = QueryFragment()
    guard let columns = first.values?.map(\.column) else {
      fragment.append(raw: "DELETE FROM ")
      fragment.append(quoting: first.table.name)
      fragment.append(raw: " WHERE ")
      fragment.append(quoting: first.table.key)
      fragment.append(raw: " IN (")
      for (offset, write) in writes.enumerated() {
        if offset > 0 { fragment.append(raw: ", ") }
        fragment.append(QueryFragment(binding: write.key))
      }
      fragment.append(raw: ")")
      return Fragment.statement(fragment)
    }
    fragment.append(raw: "INSERT INTO ")
    fragment.append(quoting: first.table.name)
    fragment.append(raw: " (")
    fragment.append(quoting: first.table.key)
    for column in columns {
      fragment.append(raw: ", ")
      fragment.append(quoting: column)
    }
    fragment.append(raw: ") VALUES ")
    for (offset, write) in writes.enumerated() {
      fragment.append(raw: offset == 0 ? "(" : ", (")
      fragment.append(QueryFragment(binding: write.key))
      for (_, value) in write.values ?? [] {
        fragment.append(raw: ", ")
        fragment.append(QueryFragment(binding: value))
      }
      fragment.append(raw: ")")
    }
    fragment.append(raw: " ON CONFLICT (")
    fragment.append(quoting: first.table.key)
    fragment.append(raw: columns.isEmpty ? ") DO NOTHING" : ") DO UPDATE SET ")
    for (offset, column) in columns.enumerated() {
      if offset > 0 { fragment.append(raw: ", ") }
      fragment.append(quoting: column)
      fragment.append(raw: " = excluded.")
      fragment.append(quoting: column)
    }
    return Fragment.statement(fragment)
  }
}
#endif
