/// A history of migration files that ran without an error in a build, and the scratch database
/// its first `fileCount` files left when that database can run more files, so that a later
/// build can run only the files after them (``RunMigrationHistories``).
///
/// Starting from it is the same as running those files again: the key it is kept under covers
/// their paths and checksums, the tool, SQLite's version and the app's SQL functions.
struct ReplayCheckpoint {
  /// How many of the history's files, from the first, the database has run.
  var fileCount: Int
  /// The database's bytes, as SQLite serializes it; nil when it held only the schema (every
  /// statement ran, each simple `CREATE` on its own, see ``SchemaOnlyReplay``), which no
  /// statement that touches rows can run on.
  var database: [UInt8]?
  /// The path of the file that created each table, by folded table name.
  var creators: [String: String]
}

/// How a replay runs a history's migration files.
enum ReplayMode {
  /// As fast as reading only the schema allows (see ``SchemaOnlyReplay``): for planning, and for
  /// a history that already ran statement by statement in an earlier build.
  case readingSchema
  /// Every statement as the migrator runs it at launch, so that SQLite's errors are found (the
  /// build plugin's check): simple `CREATE`s each on an empty database where the history allows
  /// (see ``SchemaOnlyReplay``); only the files after `checkpoint`'s when there is one.
  case runningEveryStatement(after: ReplayCheckpoint?)
  /// Every statement on one database, as the migrator runs them, leaving tables that hold rows:
  /// for a change that rewrites them, such as dropping a column.
  case withStorage

  /// Whether this is the build plugin's check, whose run a later build can start from.
  var isBuildCheck: Bool {
    if case .runningEveryStatement = self { true } else { false }
  }
}
