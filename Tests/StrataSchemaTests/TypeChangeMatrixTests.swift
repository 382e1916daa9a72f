import Foundation
import Testing

@testable import StrataSchema
import StrataTestSupport

/// Every change of a property's type to another that models can store, on a table with a row,
/// on both databases: the migration converts the value or stops before changing anything with a
/// message that names the row — never a database's own error halfway, never a value changed
/// unasked. Each property has a default of its type, which the change must carry over too.
@Suite(.blockingWork) struct TypeChangeMatrixTests {
  /// A stored type: the Swift declaration, and the row's value as each database writes it.
  struct StoredType: Sendable, CustomStringConvertible {
    var swift: String
    var sqlite: String
    var postgreSQL: String
    var description: String { swift }
  }

  static let types: [StoredType] = [
    .init(swift: "var value = 0", sqlite: "1", postgreSQL: "1"),
    .init(swift: "var value = 0.5", sqlite: "2.5", postgreSQL: "2.5"),
    .init(swift: "var value = \"\"", sqlite: "'1'", postgreSQL: "'1'"),
    .init(swift: "var value = false", sqlite: "1", postgreSQL: "TRUE"),
    .init(swift: "var value: UUID", sqlite: "'DEADBEEF-0000-4000-8000-000000000001'", postgreSQL: "'deadbeef-0000-4000-8000-000000000001'"),
    .init(swift: "var value: Date", sqlite: "'2025-01-01 03:04:05.678'", postgreSQL: "'2025-01-01 03:04:05.678+00'"),
    .init(swift: "var value: Data", sqlite: "X'0102'", postgreSQL: "'\\x0102'"),
    .init(swift: "// @Column(as: JSONRepresentation<[String]>.self)\n  var value: [String] = []", sqlite: "'[\"a\"]'", postgreSQL: "'[\"a\"]'"),
  ]

  static func model(_ type: StoredType) -> String {
    "import Foundation\nstruct Item: Table {\n  let id: Int\n  \(type.swift)\n}\n"
  }

  /// What a change did: converted the row's value (as text), stopped with a guard's message, or
  /// was refused when it was generated.
  enum Outcome: Equatable, CustomStringConvertible {
    case converted(String)
    case stopped(String)
    case refused(String)

    var isConversion: Bool {
      if case .converted = self { true } else { false }
    }

    var description: String {
      switch self {
      case .converted(let value): "converted to \(value)"
      case .stopped(let message): "stopped: \(message)"
      case .refused(let message): "refused: \(message)"
      }
    }
  }

  static var pairs: [(StoredType, StoredType)] {
    types.flatMap { from in types.filter { $0.swift != from.swift }.map { (from, $0) } }
  }

  /// Plans the change from `from` to `to` in a fresh migrations folder and runs it with
  /// `apply`, which returns the value, as text, that the row holds afterwards.
  static func change(
    from: StoredType, to: StoredType, dialect: DatabaseDialect, apply: (MigrationFiles.File) throws -> Void,
    value: () throws -> String
  ) throws -> Outcome {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-type-matrix-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // The snapshot records the type the model read, which a change to one stored alike checks.
    var snapshot: String?
    func plan(_ type: StoredType) throws -> MigrationFiles.File? {
      let models = try Generator(sources: [("Models.swift", model(type))]).models(for: dialect)
      let plan = try MigrationPlanner.plan(
        models: models, migrations: try MigrationFiles(directory: directory.path, root: nil), moduleName: "App", allowDataLoss: false,
        previousSnapshot: snapshot)
      snapshot = plan.snapshot
      guard let migration = plan.newMigration else { return nil }
      try AtomicFile.write(migration.sql, to: directory.appendingPathComponent(migration.fileName).path)
      return try MigrationFiles(directory: directory.path, root: nil).files.last
    }
    try apply(try #require(try plan(from)))
    let next: MigrationFiles.File?
    do {
      next = try plan(to)
    } catch let error as DiagnosticsError {
      return .refused(error.diagnostics.map(\.message).joined(separator: "; "))
    }
    guard let next else { return .converted(try value()) }
    do {
      try apply(next)
    } catch {
      let text = "\(error)"
      guard let start = text.range(of: MigrationGuard.prefix) else { throw error }
      return .stopped(String(text[start.upperBound...].prefix(200)))
    }
    return .converted(try value())
  }

  /// The pairs whose outcome differs between the databases, and why.
  static let differences: [String: String] = [
    // SQLite keeps a text's conversion only when the number reads back as the same text, and
    // 1.0 reads back as "1.0"; PostgreSQL's double reads back as "1".
    "var value = \"\" → var value = 0.5": "SQLite stops, PostgreSQL converts",
  ]

  @Test(arguments: pairs.map { [$0.0.description, $0.1.description] })
  func onBothDatabases(_ pair: [String]) throws {
    let (from, to) = (Self.types.first { $0.swift == pair[0] }!, Self.types.first { $0.swift == pair[1] }!)
    let sqlite = try SQLiteConnection()
    let onSQLite = try Self.change(
      from: from, to: to, dialect: .sqlite,
      apply: { file in
        try MigrationReplay.apply([file], to: sqlite)
        if file.name.hasPrefix("0001") { try sqlite.execute("INSERT INTO items (id, value) VALUES (1, \(from.sqlite))") }
      },
      value: { try sqlite.rows("SELECT quote(value) AS value FROM items").first?["value"] ?? "no row" })
    Self.expect(onSQLite, from: from, to: to)
    guard PostgreSQLServer.isAvailable else { return }
    let postgreSQL = try PostgreSQLServer.shared().scratchDatabase()
    let onPostgreSQL = try Self.change(
      from: from, to: to, dialect: .postgresql,
      apply: { file in
        try postgreSQL.apply(file)
        if file.name.hasPrefix("0001") { try postgreSQL.execute("INSERT INTO items (id, value) VALUES (1, \(from.postgreSQL))") }
      },
      value: { try postgreSQL.run("SELECT quote_nullable(value) FROM items").trimmingCharacters(in: .whitespacesAndNewlines) })
    Self.expect(onPostgreSQL, from: from, to: to)
    // The same change means the same on both: both convert, or both stop.
    let key = "\(from.swift.split(separator: "\n").last!.trimmingCharacters(in: .whitespaces)) → \(to.swift.split(separator: "\n").last!.trimmingCharacters(in: .whitespaces))"
    if Self.differences[key] == nil {
      #expect(onSQLite.isConversion == onPostgreSQL.isConversion, "\(key): SQLite \(onSQLite), PostgreSQL \(onPostgreSQL)")
    }
  }

  /// A change converts or stops; converting never loses the row.
  static func expect(_ outcome: Outcome, from: StoredType, to: StoredType, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    switch outcome {
    case .converted(let value):
      #expect(value != "no row" && value != "" && value != "NULL", "\(from) → \(to): \(outcome)", sourceLocation: sourceLocation)
    case .stopped(let message):
      #expect(message.contains("\"items\""), "\(from) → \(to): \(outcome)", sourceLocation: sourceLocation)
    case .refused(let message):
      Issue.record("\(from) → \(to): \(message)", sourceLocation: sourceLocation)
    }
  }
}
