import Foundation

/// A module's migration files: `NNNN_description.sql` in its `Migrations` folder, applied in the
/// order of their numbers.
///
/// The number, not the file name, orders migrations, so that `10000_…` runs after `9999_…`.
/// Files whose names sort differently from their numbers because a number is not padded are
/// reported, as are two files with one number.
public struct MigrationFiles: Sendable {
  /// One migration file.
  public struct File: Sendable {
    /// The file name without `.sql`: the migration's name in GRDB's migrator.
    public var name: String
    /// Where the file is.
    public var path: String
    /// Its SQL; empty for a data migration written in Swift, which changes no schema.
    public var sql: String
    /// The Swift source of a data migration (`0008_split_names.swift`); nil for an SQL file.
    public var swift: String?
    /// The number its name starts with.
    public var number: Int
    /// How many digits the number is written with.
    public var numberWidth: Int
    /// The SHA-256 of its text (after a byte order mark, if any), which the migrator records:
    /// its SQL, or a data migration's whole Swift source.
    public var checksum: String

    /// The name of the type a data migration declares its `migrate` function in:
    /// `Migration0008` for `0008_split_names.swift`.
    public var dataMigrationType: String { "Migration" + name.prefix { ("0"..."9").contains($0) } }

    /// Whether the file is the schema of an existing database (``baselineMarker`` on its first
    /// line), which databases that already hold it record as applied without running it.
    public var isBaseline: Bool { sql.hasPrefix(MigrationFiles.baselineMarker) }

    /// The number of the oldest migration whose schema keeps working after this one, as its
    /// header says (``CompatibilityWindow/headerLine(start:)``); nil when it says nothing.
    public var compatibleFrom: Int? { CompatibilityWindow.start(inHeaderOf: sql) }

    /// The comment lines the file starts with, without `-- `: where generated migrations
    /// record what the planner reads back (what they keep, what a squash replaces).
    var headerLines: [Substring] {
      var lines: [Substring] = []
      for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
        guard line.hasPrefix("--") else { break }
        lines.append(line.dropFirst(2).drop { $0 == " " })
      }
      return lines
    }

    /// What a squash (``MigrationSquash``) replaces, by name and checksum, oldest first; empty
    /// for another migration.
    public var replaces: [(name: String, checksum: String)] { MigrationSquash.replaced(by: self) }

    /// A migration the planner wrote and has not saved, to check it after the others.
    static func generated(_ sql: String) -> File {
      File(name: "generated", path: "the generated migration", sql: sql, number: 0, numberWidth: 0)
    }

    init(name: String, path: String, sql: String, number: Int, numberWidth: Int) {
      self.name = name
      self.path = path
      self.sql = sql
      self.number = number
      self.numberWidth = numberWidth
      self.checksum = SHA256.hex(sql.utf8)
    }

    /// A data migration written in Swift.
    init(name: String, path: String, swift: String, number: Int, numberWidth: Int) {
      self.init(name: name, path: path, sql: "", number: number, numberWidth: numberWidth)
      self.swift = swift
      self.checksum = SHA256.hex(swift.utf8)
    }
  }

  /// The `Migrations` folder.
  public let directory: String
  /// The module's directory, to which paths in headers are relative.
  public let root: String?
  /// The files, in the order they run.
  public let files: [File]
  /// Problems that do not stop the command, such as numbers that sort differently by name.
  public let warnings: [Diagnostic]

  /// Files held in memory, as if read from `directory`.
  init(directory: String, files: [(name: String, sql: String)]) {
    self.directory = directory
    self.root = nil
    self.files = files.enumerated().map { position, file in
      File(
        name: file.name, path: (directory as NSString).appendingPathComponent(file.name + ".sql"), sql: file.sql,
        number: position + 1, numberWidth: Self.numberWidth)
    }
    self.warnings = []
  }

  /// The width numbers are padded to, so that names sort like numbers up to 9999.
  public static let numberWidth = 4

  /// Reads the directory; a missing directory has no migrations yet. Files whose names end in
  /// `.sql` in any case are migrations; hidden files (editors' and Strata's temporary files) are
  /// not.
  ///
  /// - Throws: ``DiagnosticsError`` for a file that is not UTF-8, a name without a number or
  ///   with invisible characters, and two files that are the same migration.
  public init(directory: String, root: String?) throws {
    self.directory = directory
    self.root = root
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      files = []
      warnings = []
      return
    }
    var diagnostics = Diagnostics()
    var files: [File] = []
    var byName: [String: String] = [:]
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { !$0.hasPrefix(".") && ["sql", "swift"].contains(($0 as NSString).pathExtension.lowercased()) }
      .sorted()
    for fileName in names {
      let path = (directory as NSString).appendingPathComponent(fileName)
      let name = (fileName as NSString).deletingPathExtension
      let location = SourceLocation(path: path, line: 1, column: 1)
      if let scalar = InvisibleCharacters.first(in: fileName) {
        diagnostics.error(
          "the migration's file name contains \(InvisibleCharacters.describe(scalar)), a control or invisible character; rename the file",
          at: location)
        continue
      }
      let digits = name.prefix { ("0"..."9").contains($0) }
      let rest = name.dropFirst(digits.count)
      guard !digits.isEmpty, rest.isEmpty || rest.hasPrefix("_"), let number = Int(digits) else {
        diagnostics.error(
          "a migration's file name starts with the number that orders it, then '_' and a description: rename \(SwiftLiteral.string(fileName)) like 0001_create_items.sql",
          at: location)
        continue
      }
      if let other = byName[name] {
        diagnostics.error("this file and \((other as NSString).lastPathComponent) are both the migration \(SwiftLiteral.string(name)); remove one", at: location)
        continue
      }
      byName[name] = fileName
      do {
        let text = try SourceFiles.read(path)
        files.append(
          (fileName as NSString).pathExtension.lowercased() == "swift"
            ? File(name: name, path: path, swift: text, number: number, numberWidth: digits.count)
            : File(name: name, path: path, sql: text, number: number, numberWidth: digits.count))
      } catch let error as DiagnosticsError {
        error.diagnostics.forEach { diagnostics.error($0.message, at: $0.location) }
      }
    }
    if diagnostics.hasErrors { throw DiagnosticsError(diagnostics.sorted) }
    files.sort { ($0.number, $0.name) < ($1.number, $1.name) }
    self.files = files
    self.warnings = Self.orderWarnings(files)
  }

  /// Two files with one number, and unpadded numbers whose names sort in another order than the
  /// migrations run.
  private static func orderWarnings(_ files: [File]) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    for (earlier, later) in zip(files, files.dropFirst()) {
      let location = SourceLocation(path: later.path, line: 1, column: 1)
      if earlier.number == later.number {
        warnings.append(
          Diagnostic(
            .warning,
            "this migration and \(earlier.name) have the same number, \(later.number) (two branches each added one?); both run, in name order, \(earlier.name) first. If this one has run on no database yet, renumber it after the others; if both have, leave them",
            at: location))
      } else if earlier.name > later.name, min(earlier.numberWidth, later.numberWidth) < numberWidth {
        warnings.append(
          Diagnostic(
            .warning,
            "\(later.name) runs after \(earlier.name), because migrations run in the order of their numbers, but its name sorts before it; pad numbers to \(numberWidth) digits (0001_…) so that the folder lists migrations in the order they run",
            at: location))
      }
    }
    return warnings
  }

  /// Whether the Swift file at `path` is a data migration (`Migrations/0008_split_names.swift`,
  /// or in an attached database's folder inside `Migrations`) rather than models: its tables
  /// are the schema of its place in the history, frozen, not the module's.
  public static func isDataMigration(_ path: String) -> Bool {
    let url = URL(fileURLWithPath: path)
    let folders = url.deletingLastPathComponent().pathComponents.suffix(2)
    let name = url.lastPathComponent
    let digits = name.prefix { ("0"..."9").contains($0) }
    return folders.contains("Migrations") && !digits.isEmpty && name.dropFirst(digits.count).hasPrefix("_")
      && url.pathExtension.lowercased() == "swift"
  }

  /// The first line of a baseline migration: the schema of an existing database, written by
  /// `strata import`.
  public static let baselineMarker = "-- strata: baseline"

  /// The Swift registry that embeds the files, and those of each attached database, importing
  /// `runtime`. The migrations a squash replaces are embedded with it, from
  /// `Migrations/Squashed`, for databases that ran some of them; those shipped in a release
  /// `strata.json` marks (`releasedThrough`, the newest release's migration number) say so.
  public func registry(
    attached: [(name: String, files: MigrationFiles)] = [], runtime: RuntimeModule = .strata, releasedThrough: Int? = nil
  ) throws -> String {
    SwiftEmitter.migrationRegistry(
      try registered(releasedThrough: releasedThrough), attached: try attached.map { ($0.name, try $0.files.registered(releasedThrough: nil)) },
      sources: ([self] + attached.map(\.files)).flatMap(\.files).map { SourceFiles.relative($0.path, to: root) },
      runtime: runtime)
  }

  /// The files as the registry embeds them, squashes with what they replace.
  ///
  /// - Throws: ``InputError`` for a squashed migration whose file in `Migrations/Squashed`
  ///   changed since the squash.
  public func registered(releasedThrough: Int?) throws -> [SwiftEmitter.RegisteredMigration] {
    let archive = try archive()
    return try files.indices.map { try Self.registered(files, at: $0, archive: archive, released: releasedThrough) }
  }

  /// The file at `position` as the registry embeds it, with what it replaces when it is a
  /// squash.
  ///
  /// - Throws: ``InputError`` for a squashed migration whose file in `Migrations/Squashed`
  ///   changed since the squash.
  private static func registered(
    _ files: [File], at position: Int, archive: [String: File], released: Int?
  ) throws -> SwiftEmitter.RegisteredMigration {
    let file = files[position]
    let archived = try file.replaces.compactMap { replaced -> File? in
      guard let archived = archive[replaced.name] else { return nil }
      guard archived.checksum == replaced.checksum else {
        throw InputError(
          "\(archived.path) changed after \(file.name) squashed it (checksum \(replaced.checksum.prefix(12))… then, \(archived.checksum.prefix(12))… now): databases that ran it ran the old text; restore it")
      }
      return archived
    }
    let replaces = try file.replaces.map { replaced -> SwiftEmitter.RegisteredMigration in
      guard let index = archived.firstIndex(where: { $0.name == replaced.name }) else {
        return SwiftEmitter.RegisteredMigration(name: replaced.name, checksum: replaced.checksum, isEmbedded: false)
      }
      return try registered(archived, at: index, archive: archive, released: released)
    }
    return SwiftEmitter.RegisteredMigration(
      name: file.name, sql: file.sql, checksum: file.checksum, isBaseline: file.isBaseline, compatibleFrom: compatibleFrom(files, at: position),
      dataMigrationType: file.swift == nil ? nil : file.dataMigrationType, isReleased: released.map { file.number <= $0 } ?? false,
      replaces: replaces)
  }

  /// The oldest migration number whose schema keeps working after the file at `position`, as
  /// its header says. A data migration changes no schema: it keeps the window of the migration
  /// before it, and promises nothing where that one does not (an older version of the app is
  /// not let write around a data migration that no window was declared for).
  private static func compatibleFrom(_ files: [File], at position: Int) -> Int? {
    guard files[position].swift != nil else { return files[position].compatibleFrom }
    return position > 0 ? compatibleFrom(files, at: position - 1) : nil
  }

  /// The migrations squashes replaced, in `Migrations/Squashed`, by name.
  func archive() throws -> [String: File] {
    let folder = (directory as NSString).appendingPathComponent(MigrationSquash.archiveFolder)
    let files = try MigrationFiles(directory: folder, root: root).files
    return Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The number the next migration file gets, written as its file name starts: one more than the
  /// highest number, padded to four digits.
  public var nextNumber: String {
    let number = (files.map(\.number).max() ?? 0) + 1
    let digits = String(number)
    return String(repeating: "0", count: max(0, Self.numberWidth - digits.count)) + digits
  }
}
