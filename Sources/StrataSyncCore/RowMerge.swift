import StrataCore

/// How a row another replica sends merges with the row as held here: the rules every store
/// (a SQLite replica, the PostgreSQL server) applies, whatever it keeps them in.
package enum RowMerge {
  /// What an incoming row does to the held one.
  package enum Step: Equatable {
    /// It is from an earlier life of the row (an insert or delete since replaced it), or repeats
    /// a delete: nothing changes.
    case ignore
    /// It is a later insert or delete: the row's earlier life, and what was written to it, is
    /// over; the incoming row is the row.
    case replace
    /// It is the same life: its columns merge one by one (``mergedColumns(_:_:)``).
    case mergeColumns
  }

  /// The step for `incoming` on a row whose latest insert or delete was `local` (nil when the
  /// row was never seen here).
  package static func step(local: (stamp: SyncStamp, isDeleted: Bool)?, incoming: RowChange) -> Step {
    guard let local else { return .replace }
    if incoming.stamp < local.stamp { return .ignore }
    if incoming.stamp > local.stamp { return .replace }
    return incoming.isDeleted ? .ignore : .mergeColumns
  }

  /// The columns of `incoming` whose merge with `local` (the same life's column states, by name)
  /// changes what is held: the merged states of those columns alone.
  package static func mergedColumns(_ local: [String: ColumnState], _ incoming: [ColumnState]) -> [ColumnState] {
    var changed: [ColumnState] = []
    for column in incoming {
      guard let mine = local[column.name] else {
        changed.append(column)
        continue
      }
      let merged =
        if column.parts != nil || mine.parts != nil {
          ColumnState(name: column.name, values: mine.values, parts: ColumnMerge.merge(mine.parts ?? [:], column.parts ?? [:]))
        } else {
          ColumnState(name: column.name, values: ColumnMerge.merge(mine.values, column.values))
        }
      if merged.values.map(\.stamp) != mine.values.map(\.stamp) || merged.parts != mine.parts { changed.append(merged) }
    }
    return changed
  }
}

extension ColumnState {
  /// The value the column holds for its state under `rule`: a counter's total, or what the rule
  /// makes of the concurrent values.
  package func resolved(by rule: SyncMerge.Rule) throws -> StoredValue {
    if let parts { return ColumnMerge.total(parts) }
    return try ColumnMerge.resolve(values, rule: rule)
  }
}

extension RowMerge {
  /// Whether the row `a` keeps a unique value that the row `b` holds too, by the rule every
  /// store applies alike so that replicas agree on which row waits: the row inserted first (the
  /// stamp of its life) keeps it; of two inserted at once (one transaction of one replica), the
  /// row with the smaller key.
  package static func keepsUniqueValue(_ a: (stamp: SyncStamp, key: StoredValue), over b: (stamp: SyncStamp, key: StoredValue)) -> Bool {
    if a.stamp != b.stamp { return a.stamp < b.stamp }
    return precedes(a.key, b.key)
  }

  /// A key's place in the tie-break: keys of a table are one kind, compared by their value.
  private static func precedes(_ a: StoredValue, _ b: StoredValue) -> Bool {
    switch (a, b) {
    case (.integer(let x), .integer(let y)): x < y
    case (.real(let x), .real(let y)): x < y
    case (.text(let x), .text(let y)): Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
    case (.blob(let x), .blob(let y)): x.lexicographicallyPrecedes(y)
    default: rank(a) < rank(b)
    }
  }

  private static func rank(_ value: StoredValue) -> Int {
    switch value {
    case .null: 0
    case .integer, .real: 1
    case .text: 2
    case .blob: 3
    }
  }
}
