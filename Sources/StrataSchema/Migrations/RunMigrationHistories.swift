import Foundation
import GRDBSQLite

/// The migration histories the build plugin has already run statement by statement, kept in a
/// file of the plugin's own work folder.
///
/// Running *n* `CREATE TABLE`s one at a time costs SQLite O(n²) (each one re-reads the schema
/// table and clears every table's foreign-key cache), which made the build plugin take 9 s for
/// 5,000 tables on every build that touched a model. A history that ran once without an error
/// runs the same way again, so when the files, the tool and SQLite are unchanged the plugin
/// lets SQLite read the schema at once instead (``MigrationDrift``), which grows linearly. A
/// new or edited migration, a rebuilt tool or a deleted build folder runs every statement again.
public struct RunMigrationHistories {
  private let path: String
  private let tool: String
  private let recorded: Set<String>
  private var current: Set<String> = []

  /// The histories recorded at `path` (none when there is no file) by the tool that `tool`
  /// identifies (its path, size and modification time, say).
  public init(path: String, tool: String) {
    self.path = path
    self.tool = tool
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    recorded = Set(text.split(separator: "\n").map(String.init))
  }

  /// What identifies a history: its files' paths and checksums, the tool and SQLite's version.
  public struct Key: Hashable, Sendable {
    fileprivate let digest: String
  }

  /// Whether the history `key` names ran statement by statement before.
  public func contains(_ key: Key) -> Bool {
    recorded.contains(key.digest)
  }

  /// Notes that the history `key` names ran statement by statement without an error.
  public mutating func insert(_ key: Key) {
    current.insert(key.digest)
  }

  /// Writes the histories inserted since `init`; the others are no longer the target's.
  public func save() throws {
    try AtomicFile.write(current.sorted().map { $0 + "\n" }.joined(), to: path)
  }

  /// The key of `migrations` as this tool runs them on this SQLite.
  public func key(_ migrations: MigrationFiles) -> Key {
    var text = tool + "\u{0}" + String(cString: sqlite3_libversion()) + "\u{0}"
    for file in migrations.files {
      text += file.path + "\u{0}" + file.checksum + "\u{0}"
    }
    return Key(digest: SHA256.hex(SHA256.digest(Array(text.utf8))))
  }
}
