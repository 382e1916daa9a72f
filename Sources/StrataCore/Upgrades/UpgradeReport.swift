/// What an upgrade check did: for each starting schema, the rows it wrote and what the
/// migrations after it did with them.
public struct UpgradeReport: Sendable, CustomStringConvertible {
  /// One starting schema's upgrade.
  public struct Start: Sendable {
    /// The last migration of the starting schema.
    public var schema: String
    /// The migrations run on it, as the app runs them.
    public var migrations: [String]
    /// The rows each table held before migrating, by table name.
    public var rows: [String: Int]
    /// What the migrations did that the check does not count as a failure, in words: a table or
    /// a column a migration dropped with consent, rows a table could not be given because its
    /// CHECK constraints refused the generated values, values a data migration changed.
    public var notes: [String]
  }

  /// The seed the values were generated from; the same seed writes the same rows.
  public var seed: UInt64
  /// The rows asked for, per table.
  public var rowsPerTable: Int
  public var starts: [Start]

  public var description: String {
    var lines = ["Upgraded \(starts.count) schema\(starts.count == 1 ? "" : "s") (seed \(seed), \(rowsPerTable) rows per table):"]
    for start in starts {
      let rows = start.rows.values.reduce(0, +)
      let tables = start.rows.count
      lines.append(
        "  from \(start.schema): \(start.migrations.count) migration\(start.migrations.count == 1 ? "" : "s"), \(rows) rows in \(tables) table\(tables == 1 ? "" : "s"), checked")
      lines += start.notes.map { "    note: \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}

/// An upgrade that lost, changed or broke something: which starting schema, which migration,
/// which table, row and value, and the seed that replays it.
public struct UpgradeFailure: Error, Sendable, CustomStringConvertible {
  /// The last migration of the starting schema.
  public var schema: String
  /// The migration that failed or changed the value, when the check could tell.
  public var migration: String?
  /// The table concerned, when there is one.
  public var table: String?
  /// The row, by its key (`"id" = 42`), when there is one.
  public var row: String?
  /// What happened, in words, with the value.
  public var problem: String
  /// The seed to replay the run with.
  public var seed: UInt64
  /// The rows per table the run wrote.
  public var rowsPerTable: Int

  public var description: String {
    var text = "upgrading from the schema of \(schema)"
    if let migration { text += ", migration \(migration)" }
    if let table { text += ", table \"\(table)\"" }
    if let row { text += ", row \(row)" }
    text += ": \(problem). Replay with seed \(seed) and \(rowsPerTable) rows per table."
    return text
  }
}
