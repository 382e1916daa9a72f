import GRDB
import Strata
import StrataCore
import StrataSQL

/// What the engine needs to know of a synced table beyond the model's description: the columns
/// this replica's table has, the rows it references and the unique values it keeps, read from
/// the database when the replica opens.
struct SyncedTableInfo: Sendable {
  var name: String
  var key: String
  /// The table's stored columns other than the key, in order.
  var columns: [String]
  /// How each synced column merges.
  var merges: [String: SyncMerge]
  /// Each reference: the column, the referenced table and its column.
  var parents: [(column: String, table: String, target: String)]
  /// The synced tables that reference this one, with their referencing column.
  var children: [(table: String, column: String)] = []
  /// The sets of columns no two rows share (other than the key).
  var uniques: [[String]]
  /// How many synced tables it references through others: parents are materialized first.
  var depth = 0
  /// Columns renamed since an older app version that this replica's table has under the new
  /// name: merged as one column under it.
  var renames: [ColumnRename] = []

  /// The renames whose former column the table still has (a compatibility window's expand
  /// step): their columns are also sent under the former name, for older versions.
  var keptRenames: [ColumnRename] {
    renames.filter { columns.contains($0.former) }
  }

  func rule(of column: String) -> SyncMerge.Rule {
    merges[column]?.rule ?? .latest
  }

  static func read(_ table: SyncedTable, in db: Database) throws -> SyncedTableInfo {
    let quoted = SQLQuoting.string(table.name)
    let columns = try Row.fetchAll(db, sql: "SELECT name, hidden FROM pragma_table_xinfo(\(quoted))")
      .filter { ($0["hidden"] as Int? ?? 0) == 0 }.compactMap { $0["name"] as String? }
    guard !columns.isEmpty else {
      throw SyncError("the database has no table \(table.name); run the app's migrations before syncing")
    }
    let trigger = SyncTables.trigger(table.name, "insert")
    guard try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'trigger' AND name = ?", arguments: [trigger]) == true
    else {
      throw SyncError("the table \(table.name) does not record its writes yet (no trigger \(trigger)); run the migration that makes it // @Synced")
    }
    let parents = try Row.fetchAll(db, sql: "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(\(quoted)) ORDER BY id, seq")
      .map { (column: $0["from"] as String, table: $0["table"] as String, target: ($0["to"] as String?) ?? "") }
    var uniques: [[String]] = []
    for index in try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_list(\(quoted)) WHERE \"unique\" = 1 AND origin != 'pk' AND partial = 0") {
      let name: String = index["name"]
      let indexColumns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
      if indexColumns != [table.key] { uniques.append(indexColumns) }
    }
    return SyncedTableInfo(
      name: table.name, key: table.key, columns: columns.filter { $0 != table.key },
      merges: Dictionary(table.columns.map { ($0.name, $0.merge) }, uniquingKeysWith: { first, _ in first }),
      parents: parents, uniques: uniques, renames: ColumnRename.followed(in: table, columns: columns))
  }

  /// The tables' children and depths, once all are read.
  static func link(_ tables: inout [String: SyncedTableInfo]) {
    for table in tables.values {
      for parent in table.parents where tables[parent.table] != nil {
        tables[parent.table]?.children.append((table.name, parent.column))
      }
    }
    func depth(_ name: String, _ visiting: Set<String>) -> Int {
      guard let table = tables[name] else { return 0 }
      let parents = table.parents.map(\.table).filter { tables[$0] != nil && !visiting.contains($0) }
      return parents.map { depth($0, visiting.union([name])) + 1 }.max() ?? 0
    }
    let depths = Dictionary(uniqueKeysWithValues: tables.keys.map { ($0, depth($0, [])) })
    for (name, depth) in depths { tables[name]?.depth = depth }
  }
}
