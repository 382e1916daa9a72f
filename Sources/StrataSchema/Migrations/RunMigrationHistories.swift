import Foundation
import GRDBSQLite

/// The migration histories the build plugin has already run statement by statement, kept in a
/// folder of the plugin's own work folder: for each, the scratch database it left and the file
/// that created each table, or only a mark when that database held only the schema.
///
/// Running *n* `CREATE TABLE`s one at a time on one database costs SQLite O(n²) (each one
/// re-reads the schema table and clears every table's foreign-key cache). A history made only of
/// simple `CREATE`s and statements that change only the schema runs each `CREATE` on its own on an
/// empty database instead, which grows linearly (``SchemaOnlyReplay``), and keeps only a mark. A
/// history with other statements runs them all on one database, and keeps it. A history that ran
/// once without an error runs the same way again, so:
///
/// - when the files, the tool, SQLite and the app's SQL functions are unchanged, the plugin lets
///   SQLite read the schema at once (``MigrationDrift``), which grows linearly;
/// - when migrations were added after a history that ran, only the new files run: on the kept
///   database, statement by statement, where the cost grows with the new statements times the
///   tables, not with the square of the tables; after a mark, with every `CREATE` of the new
///   files on its own (SQLite reads the earlier files' at once), or every statement of every file
///   on one database when a new file has other statements.
///
/// An edited or deleted migration, a rebuilt tool or a deleted build folder runs every statement
/// again. A saved database that cannot be read is ignored the same way.
public struct RunMigrationHistories {
  private let directory: String
  private let tool: String
  private let recorded: Set<String>
  /// The histories of this build: kept, and written when they come with a database.
  private var current: [String: ReplayCheckpoint?] = [:]

  /// The histories saved in the folder at `path` (none when there is no folder) by the tool that
  /// `tool` identifies (its path, size and modification time, say).
  public init(path: String, tool: String) {
    directory = path
    self.tool = tool
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    recorded = Set(
      names.compactMap { name in
        [Self.databaseExtension, Self.checkedExtension].first(where: name.hasSuffix).map { String(name.dropLast($0.count)) }
      })
  }

  /// What identifies a history: its files' paths and checksums, the app's SQL functions, the
  /// tool and SQLite's version.
  struct Key: Hashable, Sendable {
    fileprivate let digest: String
  }

  /// How to replay `migrations`, and the key to record the run under.
  func replay(of migrations: MigrationFiles, functions: [AppFunction]) -> (key: Key, mode: ReplayMode) {
    let keys = prefixKeys(migrations, functions: functions)
    let key = keys[migrations.files.count]
    if recorded.contains(key.digest) { return (key, .readingSchema) }
    // The longest run history that the migrations start with.
    for count in stride(from: migrations.files.count - 1, through: 1, by: -1) where recorded.contains(keys[count].digest) {
      if let checkpoint = checkpoint(keys[count], fileCount: count) { return (key, .runningEveryStatement(after: checkpoint)) }
    }
    return (key, .runningEveryStatement(after: nil))
  }

  /// Notes that the history `key` names ran without an error; `checkpoint` is its database when
  /// its statements ran in this build.
  mutating func record(_ key: Key, _ checkpoint: ReplayCheckpoint?) {
    current[key.digest] = checkpoint
  }

  /// Writes the databases of the histories that ran in this build, and deletes those of
  /// histories that are no longer the target's.
  public func save() throws {
    let manager = FileManager.default
    // Builds before these databases kept a file of digests here.
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
      try manager.removeItem(atPath: directory)
    }
    for (digest, checkpoint) in current {
      guard let checkpoint else { continue }
      guard let database = checkpoint.database else {
        try AtomicFile.write("", to: path(digest, Self.checkedExtension))
        continue
      }
      // The tables first: the database's file is what marks a history as run.
      let creators = checkpoint.creators.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
      try AtomicFile.write(creators, to: path(digest, Self.creatorsExtension))
      try AtomicFile.write(Data(database), to: path(digest, Self.databaseExtension))
    }
    for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] where !name.hasPrefix(".") {
      let digest = name.split(separator: ".").first.map(String.init) ?? name
      if current[digest] == nil { try? manager.removeItem(atPath: (directory as NSString).appendingPathComponent(name)) }
    }
  }

  private static let databaseExtension = ".sqlite"
  private static let creatorsExtension = ".tables"
  /// Marks a history that ran with no database kept (``ReplayCheckpoint/database``).
  private static let checkedExtension = ".checked"

  private func path(_ digest: String, _ fileExtension: String) -> String {
    (directory as NSString).appendingPathComponent(digest + fileExtension)
  }

  /// The record of the history `key` names, which ran `fileCount` files: its saved database, or
  /// none for a mark; nil when the database cannot be read.
  private func checkpoint(_ key: Key, fileCount: Int) -> ReplayCheckpoint? {
    if FileManager.default.fileExists(atPath: path(key.digest, Self.checkedExtension)) {
      return ReplayCheckpoint(fileCount: fileCount, database: nil, creators: [:])
    }
    guard let database = FileManager.default.contents(atPath: path(key.digest, Self.databaseExtension)),
      let creators = try? String(contentsOfFile: path(key.digest, Self.creatorsExtension), encoding: .utf8)
    else { return nil }
    var tables: [String: String] = [:]
    for line in creators.split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 1)
      guard fields.count == 2 else { return nil }
      tables[String(fields[0])] = String(fields[1])
    }
    return ReplayCheckpoint(fileCount: fileCount, database: Array(database), creators: tables)
  }

  /// The key of the first *k* files of `migrations`, for each *k* from 0 to all of them: a chain,
  /// each key the digest of the one before and the next file's path and checksum, so that all
  /// of them cost one pass over the files.
  private func prefixKeys(_ migrations: MigrationFiles, functions: [AppFunction]) -> [Key] {
    let start = tool + "\u{0}" + String(cString: sqlite3_libversion()) + "\u{0}"
      + functions.map { "\($0.name) \($0.isAggregate)" }.sorted().joined(separator: ",")
    var keys = [Key(digest: SHA256.hex(SHA256.digest(Array(start.utf8))))]
    for file in migrations.files {
      let link = keys[keys.count - 1].digest + "\u{0}" + file.path + "\u{0}" + file.checksum
      keys.append(Key(digest: SHA256.hex(SHA256.digest(Array(link.utf8)))))
    }
    return keys
  }
}
