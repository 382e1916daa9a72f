/// Finds a table's rows and columns again after migrating, through renames, and compares their
/// values.
///
/// Renames are found by what the rows carry, not by reading the migrations: the check's keys are
/// values no other table holds, so a table whose name is gone is the one whose rows have its
/// keys, and a column whose name is gone is the one that holds its values in every row.
enum UpgradeMatching {
  /// The table that holds `rows` (of the table `name`) after migrating: the one with that name
  /// (compared as SQL compares names), or a renamed one holding the same keys.
  static func table(
    _ name: String, _ rows: UpgradeRows, in migrated: [String: UpgradeRows], unclaimed: Set<String>
  ) -> (String, UpgradeRows)? {
    if let same = unclaimed.first(where: { $0.lowercased() == name.lowercased() }) { return (same, migrated[same]!) }
    let keys = Set(rows.rows.map(\.key))
    guard !keys.isEmpty, !rows.keyColumns.isEmpty, rows.keyColumns != ["rowid"] else { return nil }
    for candidate in unclaimed.sorted() {
      let now = migrated[candidate]!
      if Set(now.rows.map(\.key)) == keys { return (candidate, now) }
    }
    return nil
  }

  /// Checks that every row of `before` is in `after` with every value it carried; a column gone
  /// is a note (a migration drops one only when told to), a row gone or a value changed a
  /// failure. Returns whether a column is gone.
  static func compare(
    _ before: UpgradeRows, _ after: UpgradeRows, table: String, notes: inout [String],
    failure: (_ problem: String, _ row: String?) -> UpgradeFailure
  ) throws -> Bool {
    let columns = mapColumns(before, after, table: table, notes: &notes)
    let dropped = columns.values.contains { $0 == nil }
    guard !before.keyColumns.isEmpty else {
      // Rows without identity: the same rows, in any order.
      func tuples(_ rows: UpgradeRows, _ positions: [Int]) -> [String] {
        rows.rows.map { row in positions.map { row.values[$0].literal }.joined(separator: ",") }.sorted()
      }
      let kept = columns.filter { $0.value != nil }.sorted { $0.key < $1.key }
      if tuples(before, kept.map(\.key)) != tuples(after, kept.map { $0.value! }) {
        throw failure("its rows, which have no primary key, are not the rows it held (\(before.rows.count) before, \(after.rows.count) after)", nil)
      }
      return dropped
    }
    let now = Dictionary(after.rows.map { ($0.key, $0.values) }, uniquingKeysWith: { first, _ in first })
    for row in before.rows {
      let key = zip(before.keyColumns, row.key).map { "\"\($0)\" = \($1.literal)" }.joined(separator: ", ")
      guard let values = now[row.key] else {
        throw failure("the row is gone (\(before.rows.count) rows before, \(after.rows.count) after)", key)
      }
      for (position, target) in columns.sorted(by: { $0.key < $1.key }) {
        guard let target, !row.values[position].isCarried(as: values[target]) else { continue }
        throw failure(
          "column \"\(before.columns[position])\"\(before.columns[position] == after.columns[target] ? "" : " (now \"\(after.columns[target])\")") held \(row.values[position].literal), and holds \(values[target].literal) after migrating",
          key)
      }
    }
    if after.rows.count > before.rows.count {
      notes.append("\"\(table)\" holds \(after.rows.count - before.rows.count) rows more than before migrating")
    }
    return dropped
  }

  /// Where each column of `before` is in `after` (by position): the column of the same name, or
  /// the one, among those no column of `before` is named, that holds its values in every row;
  /// nil for a column gone.
  private static func mapColumns(_ before: UpgradeRows, _ after: UpgradeRows, table: String, notes: inout [String]) -> [Int: Int?] {
    var mapping: [Int: Int?] = [:]
    let beforeNames = Set(before.columns.map { $0.lowercased() })
    var free = after.columns.indices.filter { !beforeNames.contains(after.columns[$0].lowercased()) }
    let now = Dictionary(after.rows.map { ($0.key, $0.values) }, uniquingKeysWith: { first, _ in first })
    for (position, name) in before.columns.enumerated() {
      if let same = after.columns.firstIndex(where: { $0.lowercased() == name.lowercased() }) {
        mapping[position] = same
        continue
      }
      let carried = free.first { target in
        !before.keyColumns.isEmpty && !before.rows.isEmpty
          && before.rows.allSatisfy { row in now[row.key].map { row.values[position].isCarried(as: $0[target]) } ?? false }
      }
      if let carried {
        free.removeAll { $0 == carried }
        notes.append("column \"\(name)\" of \"\(table)\" is now \"\(after.columns[carried])\"")
        mapping[position] = carried
      } else {
        notes.append("dropped column \"\(name)\" of \"\(table)\" and its \(before.rows.count) values")
        mapping[position] = .some(nil)
      }
    }
    return mapping
  }
}
