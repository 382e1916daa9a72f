/// A scratch database as the first `fileCount` migration files of a history left it, taken in a
/// build that ran them statement by statement without an error, so that a later build can run
/// only the files after them (``RunMigrationHistories``).
///
/// Starting from it is the same as running those files again: the key it is kept under covers
/// their paths and checksums, the tool, SQLite's version and the app's SQL functions.
struct ReplayCheckpoint {
  /// How many of the history's files, from the first, the database has run.
  var fileCount: Int
  /// The database's bytes, as SQLite serializes it.
  var database: [UInt8]
  /// The path of the file that created each table, by folded table name.
  var creators: [String: String]
}

/// How a replay runs a history's migration files.
enum ReplayMode {
  /// As fast as reading only the schema allows (see ``SchemaOnlyReplay``): for planning, and for
  /// a history that already ran statement by statement in an earlier build.
  case readingSchema
  /// Every statement as the migrator runs it at launch (the build plugin's check); only the
  /// files after `checkpoint`'s when there is one.
  case runningEveryStatement(after: ReplayCheckpoint?)

  /// Whether every statement runs (the files a checkpoint covers did, in an earlier build).
  var runsEveryStatement: Bool {
    if case .runningEveryStatement = self { true } else { false }
  }
}
