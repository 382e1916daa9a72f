import Foundation

/// A module's migration files: `NNNN_description.sql` in its `Migrations` folder, applied in
/// file name order.
public struct MigrationFiles: Sendable {
  /// One migration file.
  public struct File: Sendable {
    /// The file name without `.sql`: the migration's name in GRDB's migrator.
    public var name: String
    /// Where the file is.
    public var path: String
    /// Its contents.
    public var sql: String
  }

  /// The `Migrations` folder.
  public let directory: String
  /// The module's directory, to which paths in headers are relative.
  public let root: String?
  /// The files, in name order.
  public let files: [File]

  /// Reads the directory; a missing directory has no migrations yet.
  public init(directory: String, root: String?) throws {
    self.directory = directory
    self.root = root
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      files = []
      return
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".sql") && !$0.hasPrefix(".") }
      .sorted()
    files = try names.map { name in
      let path = (directory as NSString).appendingPathComponent(name)
      return File(name: String(name.dropLast(4)), path: path, sql: try SourceFiles.read(path))
    }
  }

  /// The Swift registry that embeds the files.
  public func registry() -> String {
    SwiftEmitter.migrationRegistry(
      files.map { ($0.name, $0.sql) }, sources: files.map { SourceFiles.relative($0.path, to: root) })
  }

  /// The number the next migration file gets: one more than the highest number that starts a
  /// file name.
  public var nextNumber: Int {
    files.compactMap { file in Int(file.name.prefix { $0.isNumber }) }.max().map { $0 + 1 } ?? 1
  }
}
