/// Whether the checked-in migrations still produce the schema the models declare.
///
/// The build plugin runs this on every build that changes a model or a migration, so that a model
/// edited without a new migration is a warning at the model's line instead of an app that stops
/// at launch ("table notes has no column named color"). It is a warning, not an error, because
/// editing a model and then writing its migration is the normal order of work: the build in
/// between must still produce conformances, so that the code around the edit compiles.
public enum MigrationDrift {
  /// Runs `migrations` on a scratch database as GRDB's migrator would, statement by statement,
  /// and returns one warning per model whose
  /// table the migrations do not produce as declared, listing the changes a new migration would
  /// make, and one per table the migrations create that no model declares.
  ///
  /// - Throws: ``DiagnosticsError`` at the statement that fails, or that a migration may not
  ///   contain (`COMMIT`, `VACUUM`, …), as it would at launch.
  ///
  /// With a compatibility window, what the migrations keep for the window's older schemas is
  /// expected, and what the window no longer needs is a change to make.
  public static func warnings(models: ModelSet, migrations: MigrationFiles, window: CompatibilityWindow? = nil) throws -> [Diagnostic] {
    try warnings(models: models, migrations: migrations, replay: .runningEveryStatement(after: nil), window: window).warnings
  }

  /// ``warnings(models:migrations:)``, running only what `histories` has not seen run: nothing
  /// when these very migrations ran before (SQLite then reads their schema at once), only the
  /// files after the longest history that ran when migrations were added. Records the run in
  /// `histories`.
  public static func warnings(
    models: ModelSet, migrations: MigrationFiles, histories: inout RunMigrationHistories, window: CompatibilityWindow? = nil
  ) throws -> [Diagnostic] {
    let (key, mode) = histories.replay(of: migrations, functions: models.functions)
    let (warnings, checkpoint) = try self.warnings(models: models, migrations: migrations, replay: mode, window: window)
    histories.record(key, checkpoint)
    return warnings
  }

  private static func warnings(
    models: ModelSet, migrations: MigrationFiles, replay: ReplayMode, window: CompatibilityWindow?
  ) throws -> (warnings: [Diagnostic], checkpoint: ReplayCheckpoint?) {
    let comparison = try MigrationPlanner.compare(models, with: migrations, replay: replay, window: window)
    let tables = Dictionary(
      models.tables.map { (SQLName.folded($0.tableName), $0) }, uniquingKeysWith: { first, _ in first })
    let renderer = MigrationRenderer(renames: comparison.renames, changes: comparison.changes, current: comparison.current)
    let lines = renderer.changeLines
    // A change that deletes data needs the flag; say so where it applies.
    let losingData = Set(renderer.steps.flatMap(\.tablesLosingValues).map(SQLName.folded))
    func run(_ key: String) -> String {
      "run `swift package --allow-writing-to-package-directory generate-migrations"
        + (losingData.contains(key) ? " --allow-data-loss` (it deletes data)" : "`")
    }

    // The objects one declaration makes (a full-text index and its triggers) are one warning at
    // its model.
    let declaration = Dictionary(
      models.schema.objects.flatMap { object in object.objectNames.map { (SQLName.folded($0), SQLName.folded(object.name)) } },
      uniquingKeysWith: { first, _ in first })
    var order: [String] = []
    var byTable: [String: [String]] = [:]
    for (table, line) in lines {
      let key = declaration[SQLName.folded(table)] ?? SQLName.folded(table)
      if byTable[key] == nil { order.append(key) }
      byTable[key, default: []].append(line)
    }
    let unmanaged = comparison.unmanagedProblems.map { problem in
      Diagnostic(
        .warning, problem.message,
        at: MigrationPlanner.location(of: problem, in: comparison.tables)
          ?? SourceLocation(path: migrations.directory, line: 1, column: 1))
    }
    let warnings = order.map { key in
      let lines = byTable[key]!.joined(separator: "; ")
      if tables[key] == nil, let location = models.objectLocations[key] {
        return Diagnostic(
          .warning, "the migrations do not match what this model declares yet (the next migration would \(lines)); \(run(key))",
          at: location)
      }
      if let model = tables[key] {
        return Diagnostic(
          .warning,
          "the migrations do not match '\(model.swiftName)' yet (the next migration would \(lines)); \(run(key)), or the app fails when it reads or writes this table",
          at: model.location)
      }
      return Diagnostic(
        .warning, "no model declares this table any more (the next migration would \(lines)); \(run(key))",
        at: comparison.creators[key] ?? SourceLocation(path: migrations.directory, line: 1, column: 1))
    }
    return (unmanaged + warnings, comparison.checkpoint)
  }
}
