extension SchemaChanges.Rebuild {
  /// Whether the copy gives each row the rowid it had, explicitly: both tables keep rowids of
  /// their own (neither is `WITHOUT ROWID`) and the new one has no `INTEGER` key, which would be
  /// the rowid itself.
  var copiesRowids: Bool {
    !table.isWithoutRowID && !current.isWithoutRowID && table.integerKey == nil
  }

  /// Whether every copied row has the rowid it had and the same values in `columns`: then what
  /// other data holds about the rows by rowid (an FTS5 index with external content) is still
  /// true after the rebuild, and need not be made again.
  func keepsRowidsAndValues(of columns: [String]) -> Bool {
    let keepsRowids: Bool
    if copiesRowids {
      keepsRowids = true
    } else if let key = table.integerKey, let old = current.integerKey, !table.isWithoutRowID, !current.isWithoutRowID {
      keepsRowids = copiesAsIs(key.name, from: old.name)
    } else {
      keepsRowids = false
    }
    return keepsRowids && columns.allSatisfy { column in copiesAsIs(column, from: column) }
  }

  /// Whether the new table's `column` takes the values of the old table's `old` unchanged.
  private func copiesAsIs(_ column: String, from old: String) -> Bool {
    guard let source = sources.first(where: { SQLName.folded($0.column) == SQLName.folded(column) }),
      let from = source.from
    else { return false }
    return SQLName.folded(old) == SQLName.folded(from)
      && source.conversion == nil && source.backfill == nil && source.nullsBecome == nil && source.fallback == nil
  }
}
