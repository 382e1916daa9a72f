import Foundation
import GRDB
import Strata
import StrataSchema
import Testing

/// Random sequences of renames (of columns, with and without a type change, and of the table),
/// drops and additions under a window that holds the previous one or two schemas: after each
/// migration, the statements of the models in the window (by their names) and the new model's
/// insert, update and delete rows in turn, and each reads back every value any wrote; the
/// contract steps, once the window moves on, lose none. `WINDOW_SEQUENCES=200` runs more.
@Suite struct CompatibilityWindowPropertyTests {
  static let sequences = Int(ProcessInfo.processInfo.environment["WINDOW_SEQUENCES"] ?? "") ?? 8
  static let steps = 8

  /// A column as the models know it; `id` follows it through renames.
  struct Column: Equatable {
    var id: Int
    var name: String
    var renamedFrom: String?
  }

  /// The model's type: `Thing0` is the table `thing0s`.
  struct Model {
    var type: Int
    var renamedFrom: Int?
    var table: String { "thing\(type)s" }
  }

  static func source(_ model: Model, _ columns: [Column]) -> String {
    var lines = (model.renamedFrom.map { ["// @Renamed(from: \"Thing\($0)\")"] } ?? []) + ["struct Thing\(model.type): Table {", "  let id: Int"]
    for column in columns {
      if let old = column.renamedFrom { lines.append("  // @Renamed(from: \"\(old)\")") }
      lines.append("  var \(column.name) = \"\"")
    }
    return (lines + ["}"]).joined(separator: "\n")
  }

  /// The database a sequence runs on: SQL text in, rows as JSON arrays out.
  struct Target {
    var dialect: DatabaseDialect
    var migrate: ([Strata.Migration]) async throws -> Void
    var execute: (String) async throws -> Void
    /// The rows of a `SELECT` of one JSON array per row.
    var rows: (String) async throws -> [String]

    /// `values` as a JSON array, in the database's SQL.
    func jsonArray(_ values: [String]) -> String {
      dialect == .sqlite ? "json_array(\(values.joined(separator: ", ")))" : "json_build_array(\(values.joined(separator: ", ")))::text"
    }
  }

  @Test(arguments: 0..<sequences, [1, 2])
  func oldAndNewStatementsInterleaveAndNothingIsLost(seed: Int, window: Int) async throws {
    let database = try openDatabase(.inMemory)
    try await Self.run(
      seed: seed, window: window,
      on: Target(
        dialect: .sqlite, migrate: { try database.migrate($0) }, execute: { sql in try database.write { try $0.execute(sql: sql) } },
        rows: { sql in try database.read { try String.fetchAll($0, sql: sql) } }))
  }

  static func run(seed: Int, window: Int, on database: Target) async throws {
    var random = SplitMix(seed: UInt64(seed) + 7000 + UInt64(window) * 100_000)
    let history = try ModelHistory(dialect: database.dialect)
    var model = [Column(id: 0, name: "c0"), Column(id: 1, name: "c1")]
    var type = Model(type: 0)
    var nextName = 2
    try history.generate(Self.source(type, model))
    try await database.migrate(try history.migrations)
    // The values each row must hold, by column id; a dropped column's until its contract.
    var rows: [Int: [Int: String]] = [:]
    var nextRow = 1
    var log: [String] = []

    /// Inserts, updates and maybe deletes a row with `columns`' names; `known` are the columns
    /// the database keeps (the previous model's and this one's).
    func write(_ columns: [Column], _ who: String, known: [Column], table: String) async throws {
      let id = nextRow
      nextRow += 1
      var values: [Int: String] = [:]
      for column in columns { values[column.id] = "\(who)\(id)\(column.name)" }
      // The values are the test's own letters and digits: written into the SQL as they are.
      try await database.execute(
        "INSERT INTO \(table) (id\(columns.map { ", \"\($0.name)\"" }.joined())) VALUES (\(id)\(columns.map { ", '\(values[$0.id]!)'" }.joined()))")
      // What this writer does not know gets the default.
      rows[id] = Dictionary(known.map { ($0.id, "") }, uniquingKeysWith: { first, _ in first })
        .merging(values) { _, new in new }
      log.append("\(who) inserts \(id)")
      let others = rows.keys.sorted().filter { $0 != id }
      if !others.isEmpty, !columns.isEmpty {
        let target = others[random.next(upTo: others.count - 1)]
        let column = columns[random.next(upTo: columns.count - 1)]
        let value = "\(who)u\(id)"
        try await database.execute("UPDATE \(table) SET \"\(column.name)\" = '\(value)' WHERE id = \(target)")
        rows[target]![column.id] = value
        log.append("\(who) sets \(column.name) of \(target)")
      }
      if random.next(upTo: 4) == 0, let target = rows.keys.sorted().first {
        try await database.execute("DELETE FROM \(table) WHERE id = \(target)")
        rows[target] = nil
        log.append("\(who) deletes \(target)")
      }
    }

    func check(_ columns: [Column], _ who: String, table: String) async throws {
      let arrays = try await database.rows(
        "SELECT \(database.jsonArray(["id"] + columns.map { "\"\($0.name)\"" })) FROM \(table) ORDER BY id")
      let read = try arrays.map { text -> (Int, [String?]) in
        let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any])
        return ((array[0] as? NSNumber)?.intValue ?? -1, array.dropFirst().map { $0 as? String })
      }
      let expected = rows.keys.sorted().map { id in (id, columns.map { rows[id]![$0.id] }) }
      #expect(read.map(\.0) == expected.map(\.0), "seed \(seed), \(who): rows; \(log)")
      for ((id, values), (_, wanted)) in zip(read, expected) {
        #expect(values == wanted, "seed \(seed), \(who) reads row \(id) as \(values), not \(wanted); \(log)")
      }
    }

    // The models in use, oldest first, with the migration each shipped with.
    var releases: [(columns: [Column], type: Model, migration: Int)] = [(model, type, 1)]
    for step in 0..<Self.steps {
      let previous = model
      for index in model.indices { model[index].renamedFrom = nil }
      type.renamedFrom = nil
      switch random.next(upTo: 4) {
      case 4:
        type = Model(type: type.type + 1, renamedFrom: type.type)
        log.append("step \(step): rename the table to \(type.table)")
      case 0:
        let index = random.next(upTo: model.count - 1)
        model[index].renamedFrom = model[index].name
        model[index].name = "c\(nextName)"
        log.append("step \(step): rename \(previous[index].name) to \(model[index].name)")
      case 1 where model.count > 1:
        let index = random.next(upTo: model.count - 1)
        log.append("step \(step): drop \(model[index].name)")
        model.remove(at: index)
      default:
        model.append(Column(id: nextName + 100, name: "c\(nextName)"))
        for id in rows.keys { rows[id]![nextName + 100] = "" }
        log.append("step \(step): add c\(nextName)")
      }
      nextName += 1
      do {
        try history.generate(
          Self.source(type, model), allowDataLoss: true, settings: MigrationSettings(compatibleWith: .migration(releases[0].migration)))
        try await database.migrate(try history.migrations)
      } catch {
        Issue.record("seed \(seed), window \(window): \(error); \(log)")
        return
      }
      let latest = try #require(try MigrationFiles(directory: history.directory.path, root: nil).files.last?.number)
      releases.append((model, type, latest))
      if releases.count > window + 1 { releases.removeFirst() }
      // Every release in use, in a random order.
      let known = releases.flatMap(\.columns)
      var writers = Array(releases.indices)
      for index in writers.indices.reversed() { writers.swapAt(index, random.next(upTo: index)) }
      for index in writers {
        try await write(releases[index].columns, index == releases.count - 1 ? "new" : "old\(index)", known: known, table: releases[index].type.table)
      }
      for (index, release) in releases.enumerated() {
        try await check(release.columns, index == releases.count - 1 ? "new" : "old\(index)", table: release.type.table)
      }
    }
    // The window moves past the last change: its contract step keeps every value.
    for index in model.indices { model[index].renamedFrom = nil }
    type.renamedFrom = nil
    let latest = try #require(try MigrationFiles(directory: history.directory.path, root: nil).files.last?.number)
    try history.generate(Self.source(type, model), allowDataLoss: true, settings: MigrationSettings(compatibleWith: .migration(latest)))
    try await database.migrate(try history.migrations)
    // With a window of two, what the last migration but one kept goes only now.
    if let more = try history.generate(Self.source(type, model), allowDataLoss: true, settings: MigrationSettings(compatibleWith: .migration(latest))) {
      Issue.record("seed \(seed): a second contract step: \(more.sql)")
    }
    try await check(model, "new after the contract", table: type.table)
    // Nothing is left of what the window kept: no view, no column the models do not read.
    let views = try await database.rows(
      database.dialect == .sqlite
        ? "SELECT name FROM sqlite_schema WHERE type = 'view'" : "SELECT table_name::text FROM information_schema.views WHERE table_schema = current_schema()")
    #expect(views.isEmpty, "seed \(seed): \(views)")
    let columns = try await database.rows(
      database.dialect == .sqlite
        ? "SELECT name FROM pragma_table_info('\(type.table)')"
        : "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(type.table)'")
    #expect(Set(columns) == Set(["id"] + model.map(\.name)), "seed \(seed): \(columns)")
  }
}
