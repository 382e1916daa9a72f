import StrataCore

/// A synced column renamed through a compatibility window (`// @Renamed(from:)`): one column
/// under two names. While the expand step keeps both, each database's triggers hold the two in
/// step, so a replica records writes under either name; older app versions know only the
/// former. Sync merges the two as one column, under the current name, and sends it under both
/// while the sender's table still has the former, so that an older version applies it.
package struct ColumnRename: Hashable, Sendable {
  /// The name older app versions write.
  package var former: String
  /// The model's name.
  package var current: String

  /// The renames of `table` that a replica whose table has `columns` follows: those whose
  /// current name it has (a replica without it is an older version, which knows the former
  /// name alone and holds values sent under the current one until its migration adds it).
  package static func followed(in table: SyncedTable, columns: some Sequence<String>) -> [ColumnRename] {
    let present = Set(columns)
    return table.columns.compactMap { column in
      guard let former = column.formerName, present.contains(column.name) else { return nil }
      return ColumnRename(former: former, current: column.name)
    }
  }

  /// Merges each former name's state in `states` into the current name's.
  package static func fold(_ states: inout [String: ColumnState], _ renames: [ColumnRename]) {
    for rename in renames {
      guard let former = states.removeValue(forKey: rename.former) else { continue }
      states[rename.current] = states[rename.current]?.folding(former) ?? ColumnState(name: rename.current, values: former.values, parts: former.parts)
    }
  }
}

extension ColumnState {
  /// One column's states under its two names, merged into one under the current name. The
  /// triggers keep the names in step, so the two usually hold one value: it keeps the newer
  /// stamp, made on top of every write either state was. Values that differ (a state sent
  /// before the rename, a write under each name on two replicas) merge as concurrent writes.
  package func folding(_ former: ColumnState) -> ColumnState {
    if parts != nil || former.parts != nil {
      return ColumnState(name: name, values: values, parts: ColumnMerge.merge(parts ?? [:], former.parts ?? [:]))
    }
    if values.count == 1, former.values.count == 1, let mine = values.first, let theirs = former.values.first, mine.value == theirs.value {
      return ColumnState(
        name: name, values: [ColumnValue(value: mine.value, stamp: max(mine.stamp, theirs.stamp), versions: mine.versions.joined(theirs.versions))])
    }
    return ColumnState(name: name, values: ColumnMerge.merge(values, former.values))
  }
}

extension RowChange {
  /// The row with each former name's state merged into the current name's (``ColumnState/folding(_:)``).
  package func underCurrentNames(_ renames: [ColumnRename]) -> RowChange {
    guard !renames.isEmpty, !columns.isEmpty else { return self }
    var states = Dictionary(columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    ColumnRename.fold(&states, renames)
    var row = self
    row.columns = states.values.sorted { $0.name < $1.name }
    return row
  }

  /// The row with each renamed column also under its former name, for replicas of an older
  /// app version: sent while the sender's table has the former column (the expand step's
  /// window), so that every version the sender keeps working applies it.
  package func alsoUnderFormerNames(_ renames: [ColumnRename]) -> RowChange {
    guard !renames.isEmpty, !columns.isEmpty else { return self }
    var row = self
    for rename in renames {
      guard let state = columns.first(where: { $0.name == rename.current }), !columns.contains(where: { $0.name == rename.former }) else { continue }
      row.columns.append(ColumnState(name: rename.former, values: state.values, parts: state.parts))
    }
    row.columns.sort { $0.name < $1.name }
    return row
  }
}
