#if SyncServer
import Foundation
import StrataCore
import StrataPostgreSQL
import StrataSyncCore

/// A synced table as the server holds it: the model's merge rules, and the PostgreSQL table's
/// columns and references, read from the catalog when the server starts.
struct ServerTable: Sendable {
  var name: String
  var key: String
  var keyKind: UpgradeTable.Kind
  /// The table's columns other than the key, in order, with the values each takes.
  var columns: [(name: String, kind: UpgradeTable.Kind)]
  var merges: [String: SyncMerge]
  /// The columns that reference synced tables, in the table's order. The first one that holds
  /// a value names the row's parent, whose root record the row belongs to; a row without one
  /// is a root record itself.
  var parents: [(column: String, table: String)]
  /// The sets of columns a unique constraint or index covers (the key's aside): when two rows
  /// hold one value, the one inserted first keeps it (``RowMerge/keepsUniqueValue(_:over:)``).
  var uniques: [[String]] = []
  /// How many synced tables are above it: rows are merged parents first.
  var depth = 0
  /// Columns renamed since an older app version that the table has under the new name: merged
  /// as one column under it (``ColumnRename``).
  var renames: [ColumnRename] = []

  /// The renames whose former column the table still keeps: sent under both names.
  var keptRenames: [ColumnRename] {
    renames.filter { rename in columns.contains { $0.name == rename.former } }
  }

  func rule(of column: String) -> SyncMerge.Rule {
    merges[column]?.rule ?? .latest
  }

  static func read(_ tables: [SyncedTable], in db: PostgreSQLConnection) async throws -> [String: ServerTable] {
    let names = Set(tables.map(\.name))
    var read: [String: ServerTable] = [:]
    for table in tables {
      guard let catalog = try await db.catalogTable(table.name) else {
        throw SyncRefusal(.internalServerError, "the server's database has no table \(table.name); run the server's migrations before it serves")
      }
      guard let key = catalog.columns.first(where: { $0.name == table.key }) else {
        throw SyncRefusal(.internalServerError, "the server's table \(table.name) has no key column \(table.key)")
      }
      let order = Dictionary(uniqueKeysWithValues: catalog.columns.enumerated().map { ($1.name, $0) })
      let parents = catalog.references
        .filter { $0.columns.count == 1 && names.contains($0.table) }
        .map { (column: $0.columns[0], table: $0.table) }
        .sorted { (order[$0.column] ?? 0) < (order[$1.column] ?? 0) }
      read[table.name] = ServerTable(
        name: table.name, key: table.key, keyKind: key.kind,
        columns: catalog.columns.filter { $0.name != table.key }.map { ($0.name, $0.kind) },
        merges: Dictionary(table.columns.map { ($0.name, $0.merge) }, uniquingKeysWith: { first, _ in first }),
        parents: parents, uniques: try await uniques(of: table.name, in: db),
        renames: ColumnRename.followed(in: table, columns: catalog.columns.map(\.name)))
    }
    func depth(_ name: String, _ visiting: Set<String>) -> Int {
      let above = (read[name]?.parents ?? []).map(\.table).filter { !visiting.contains($0) }
      return above.map { depth($0, visiting.union([name])) + 1 }.max() ?? 0
    }
    let depths = Dictionary(uniqueKeysWithValues: read.keys.map { ($0, depth($0, [$0])) })
    for (name, depth) in depths { read[name]?.depth = depth }
    return read
  }

  /// The column sets of the table's unique indexes, whole-column and unconditional ones (a
  /// partial or expression index is left to refuse a row, which then waits).
  private static func uniques(of table: String, in db: PostgreSQLConnection) async throws -> [[String]] {
    let columns = try await sql(
      """
      SELECT i.indexrelid::bigint, a.attname::text
      FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indrelid = (quote_ident(\(table)))::regclass AND i.indisunique AND NOT i.indisprimary
        AND i.indpred IS NULL AND i.indexprs IS NULL
      ORDER BY i.indexrelid, k.ord
      """,
      as: (Int64, String).self
    ).fetchAll(db)
    var uniques: [[String]] = []
    var index: Int64?
    for (id, column) in columns {
      if id != index { uniques.append([]) }
      index = id
      uniques[uniques.count - 1].append(column)
    }
    return uniques
  }
}

extension UpgradeTable.Kind {
  /// What a column of this kind takes for a value as SQLite replicas store it (what changesets
  /// carry: UUIDs and dates as text, booleans as integers), or nil when the value is not one
  /// of the column's (a hostile or broken client's text in an integer column).
  func binding(forReplicaValue value: StoredValue) -> QueryBinding? {
    if case .null = value { return .null }
    switch (self, value) {
    case (.any, _): return value.queryBinding
    case (.integer(let bits), .integer(let number)):
      let limit = bits >= 64 ? Int64.max : (Int64(1) << (bits - 1)) - 1
      return (-limit - 1...limit).contains(number) ? .integer(number) : nil
    case (.real, .real(let number)): return .real(number)
    case (.real, .integer(let number)): return .real(Double(number))
    case (.text, .text(let text)): return .text(text)
    case (.blob, .blob(let bytes)): return .blob(bytes)
    case (.boolean, .integer(let number)) where number == 0 || number == 1: return .bool(number == 1)
    case (.uuid, .text(let text)): return UUID(uuidString: text).map(QueryBinding.uuid)
    case (.date, .text(let text)):
      return Array(text.utf8).withUnsafeBytes { DateText.parse($0) }.map(QueryBinding.date)
    case (.json, .text(let text)): return .json(text)
    default: return nil
    }
  }
}
#endif
