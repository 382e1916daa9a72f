/// Upgrade tests from every shipped schema: for each schema in an app's migration history, a
/// database at that schema, filled with generated rows (edge values first), migrated the way the
/// app migrates, then checked.
///
/// ```swift
/// @Test func upgradesKeepEveryRow() async throws {
///   let report = try await verifyUpgrades(UpgradeVerification(StrataMigrations.all, rowsPerTable: 500))
///   print(report)
/// }
/// ```
///
/// Each database's runtime runs it: `verifyUpgrades(_:)` in Strata (SQLite, in memory), and
/// `PostgreSQLDatabase.verifyUpgrades(_:)` in StrataPostgreSQL (in a scratch schema). After
/// migrating, the check holds the database to what the app promises its users:
/// - every table keeps every row, found by its primary key (or rowid), and every value it
///   carries, followed through renames of tables and columns and through conversions the
///   models asked for (a value is carried when it is the same, or the same number or text);
/// - the database's own checks pass: foreign keys, integrity, full-text indexes;
/// - the schema is the one a new install gets from the same migrations (and the build checks
///   that those make the models' schema).
///
/// A table or column that a migration drops (which it does only when told to) and rows a
/// table's CHECK constraints refused are notes in the report, not failures. A failure is an
/// ``UpgradeFailure`` that names the starting schema, the migration, the table, the row and
/// the value, and the seed that replays it.
public struct UpgradeVerification: Sendable {
  /// The app's migrations, in order: usually the generated `StrataMigrations.all`.
  public var migrations: [Migration]
  /// The rows written into each table of each starting schema.
  public var rowsPerTable: Int
  /// The seed of the generated values: the same seed writes the same rows.
  public var seed: UInt64
  /// The starting schemas, each named by its last migration; nil for every schema in the
  /// history: after each migration but the last, and after each migration a squash replaces
  /// (a database made before the squash). Give the migrations releases shipped with to test the
  /// upgrades users' devices can make.
  public var startingSchemas: [String]?

  public init(_ migrations: [Migration], rowsPerTable: Int = 100, seed: UInt64 = 1, startingSchemas: [String]? = nil) {
    self.migrations = migrations
    self.rowsPerTable = rowsPerTable
    self.seed = seed
    self.startingSchemas = startingSchemas
  }

  /// A schema a database can be at, and the way the app's `migrate` takes it from there: the
  /// migrations it ran, then each step (one migration, and the list migrating to it takes).
  struct Start {
    var schema: String
    var ran: [Migration]
    var steps: [(migration: Migration, through: [Migration])]
  }

  /// Every schema a database can be at but the last: after each of the app's migrations (a new
  /// install's path), and after each migration a squash replaces that the app still embeds (the
  /// path of a database made before the squash).
  func everyStart() -> [Start] {
    var starts: [Start] = []
    for (index, migration) in migrations.enumerated() {
      let before = Array(migrations[..<index])
      let replaced = migration.replaces.allSatisfy(\.isEmbedded) ? migration.replaces : []
      for count in replaced.indices.map({ $0 + 1 }) {
        let ran = before + replaced[..<count]
        let rest = replaced[count...].indices.map { (replaced[$0], before + replaced[...$0]) }
        starts.append(Start(schema: replaced[count - 1].name, ran: ran, steps: rest + steps(after: index - 1)))
      }
      if index < migrations.count - 1 {
        starts.append(Start(schema: migration.name, ran: Array(migrations[...index]), steps: steps(after: index)))
      }
    }
    return starts
  }

  /// The app's migrations after the one at `index`, each with the list that migrates to it.
  private func steps(after index: Int) -> [(migration: Migration, through: [Migration])] {
    migrations.indices.filter { $0 > index }.map { (migrations[$0], Array(migrations[...$0])) }
  }

  /// The starting schemas asked for.
  func starts() throws -> [Start] {
    let every = everyStart()
    guard let startingSchemas else { return every }
    return try startingSchemas.map { name in
      guard let start = every.last(where: { $0.schema == name }) else {
        throw StrataError(
          "there is no migration \"\(name)\" to start an upgrade from; the schemas are those after \(every.map(\.schema).joined(separator: ", "))")
      }
      return start
    }
  }

  /// Runs the check on `database`, one starting schema after another.
  package func run<Database: UpgradeDatabase>(on database: inout Database) async throws -> UpgradeReport {
    guard rowsPerTable >= 0 else { throw StrataError("rowsPerTable is \(rowsPerTable); give 0 or more rows") }
    let starts = try starts()
    try await database.reset()
    try await database.migrate(migrations)
    let newInstall = try await database.schema()
    var report = UpgradeReport(seed: seed, rowsPerTable: rowsPerTable, starts: [])
    for start in starts {
      report.starts.append(try await upgrade(from: start, on: &database, expecting: newInstall))
    }
    return report
  }

  /// Makes the starting schema, fills it, migrates and checks.
  private func upgrade<Database: UpgradeDatabase>(
    from start: Start, on database: inout Database, expecting newInstall: [String: String]
  ) async throws -> UpgradeReport.Start {
    let schema = start.schema
    let later = start.steps.map(\.migration)
    var result = UpgradeReport.Start(schema: schema, migrations: later.map(\.name), rows: [:], notes: [])
    let before = try await fill(start, on: &database, notes: &result.notes)
    for (table, rows) in before.rows { result.rows[table] = rows.rows.count }
    let filling = result.notes
    var dropped = false
    var problem: (any Error)?
    do {
      try await database.migrate(migrations)
      dropped = try await check(database, against: before, expecting: newInstall, notes: &result.notes, schema: schema, lenient: false)
    } catch {
      problem = error
    }
    // Migrating the same rows again, one migration at a time, names the migration that failed
    // or broke something, and what it did; it also tells a column that one migration renamed
    // and another changed from a dropped one (each rename is found by its unchanged values),
    // and lets data migrations change the values they are there to change.
    guard problem != nil || (dropped && later.count > 1) else { return result }
    let (failure, notes) = try await stepwise(from: start, on: &database, newInstall: newInstall)
    if let failure { throw failure }
    if let problem, !(problem is UpgradeFailure && later.contains { $0.data != nil }) {
      throw problem as? UpgradeFailure ?? self.failure(schema, problem: "migrating failed: \(problem)")
    }
    result.notes = filling + notes
    return result
  }

  /// A new database at the starting schema, with generated rows; the rows each table holds once
  /// filled, and what the database's own checks find wrong with them.
  private func fill<Database: UpgradeDatabase>(
    _ start: Start, on database: inout Database, notes: inout [String]
  ) async throws -> (rows: [String: UpgradeRows], problems: Set<String>) {
    try await database.reset()
    try await database.migrate(start.ran)
    var values = UpgradeValues(seed: seed &+ UInt64(start.ran.count) &* 0x100_0000_01B3)
    var held: [String: UpgradeRows] = [:]
    for table in try await database.tables() {
      try await fill(table, on: database, values: &values, parents: held)
      let rows = try await database.rows(of: table.name)
      held[table.name] = rows
      if rows.rows.count < rowsPerTable {
        notes.append(
          "\(rows.rows.count) of \(rowsPerTable) rows in \"\(table.name)\" at \(start.schema): its constraints refused the generated values of the others (\(table.columns.map(\.name).joined(separator: ", ")))")
      }
    }
    // Rows a table allows can still trip the database's own checks (an INTEGER generated
    // column whose expression overflows into a REAL fails integrity_check): those are the rows',
    // not the migrations', and only new ones count after migrating.
    let problems = try await database.problems()
    if let first = problems.first {
      notes.append("the generated rows fail the database's own checks before migrating (\(first)\(problems.count > 1 ? ", and \(problems.count - 1) more" : "")), which the check then leaves aside")
    }
    return (held, Set(problems))
  }

  /// Inserts `rowsPerTable` rows into `table`, each tried with edge values, then random ones,
  /// then with the columns that have defaults left out; a row every try was refused for is left
  /// out.
  private func fill<Database: UpgradeDatabase>(
    _ table: UpgradeTable, on database: Database, values: inout UpgradeValues, parents: [String: UpgradeRows]
  ) async throws {
    let columns = table.columns.map(\.name)
    var pending = Array(0..<rowsPerTable)
    for attempt in 0..<4 {
      guard !pending.isEmpty else { break }
      let rows = pending.map { index in
        row(for: table, index: index, attempt: attempt, values: &values, parents: parents)
      }
      let taken = try await database.insert(rows, columns: columns, into: table.name)
      pending = zip(pending, taken).filter { !$0.1 }.map(\.0)
    }
  }

  /// The values of one generated row: edge values on the first try (a different one in each
  /// row), random ones on later tries, and defaults for every column that has one on the last.
  private func row(
    for table: UpgradeTable, index: Int, attempt: Int, values: inout UpgradeValues, parents: [String: UpgradeRows]
  ) -> [QueryBinding?] {
    var row: [QueryBinding?] = []
    var referenced: [String: QueryBinding] = [:]
    for reference in table.references {
      guard let parent = parents[reference.table], !parent.rows.isEmpty else { continue }
      // One in five nullable references is NULL; the others name a row of the parent.
      let nullable = reference.columns.allSatisfy { name in table.columns.first { $0.name == name }?.isNullable ?? true }
      if nullable, values.next(below: 5) == 0 {
        for column in reference.columns { referenced[column] = .null }
        continue
      }
      // Row by row through the parent's rows, so that a reference that is also UNIQUE (one to
      // one) finds a parent no other row took.
      let parentRow = parent.rows[(index + attempt * 17) % parent.rows.count].values
      for (column, target) in zip(reference.columns, reference.targetColumns) {
        guard let position = parent.columns.firstIndex(of: target) else { continue }
        let kind = table.columns.first { $0.name == column }?.kind ?? .text
        referenced[column] = parentRow[position].binding(as: kind)
      }
    }
    for (position, column) in table.columns.enumerated() {
      if let value = referenced[column.name] {
        row.append(value)
      } else if column.primaryKeyPosition != nil {
        row.append(values.uniqueValue(column.kind))
      } else if attempt == 3, column.hasDefault || column.isNullable {
        row.append(column.hasDefault ? nil : .null)
      } else if column.isNullable, index % 7 == position % 7 {
        row.append(.null)
      } else {
        row.append(values.value(column.kind, edge: attempt == 0 ? index + position : nil))
      }
    }
    return row
  }

  /// Compares the migrated database with the rows it held and with a new install; returns
  /// whether a table or a column is gone.
  private func check<Database: UpgradeDatabase>(
    _ database: Database, against before: (rows: [String: UpgradeRows], problems: Set<String>), expecting newInstall: [String: String],
    notes: inout [String], schema: String, lenient: Bool
  ) async throws -> Bool {
    for problem in try await database.problems() where !before.problems.contains(problem) {
      throw failure(schema, problem: problem)
    }
    let after = try await database.schema()
    for name in Set(after.keys).union(newInstall.keys).sorted() where after[name] != newInstall[name] {
      throw failure(
        schema,
        problem:
          "the upgraded schema differs from a new install's: \(after[name].map { "it has \($0)" } ?? "it lacks \(newInstall[name]!)")\(after[name] != nil && newInstall[name] != nil ? ", where a new install has \(newInstall[name]!)" : "")")
    }
    let tables = try await database.tables()
    var unclaimed = Set(tables.map(\.name))
    let migrated = try await rows(of: tables, in: database)
    var dropped = false
    for (name, rows) in before.rows.sorted(by: { $0.key < $1.key }) {
      guard let (newName, now) = UpgradeMatching.table(name, rows, in: migrated, unclaimed: unclaimed) else {
        notes.append("dropped table \"\(name)\" and its \(rows.rows.count) rows")
        dropped = true
        continue
      }
      unclaimed.remove(newName)
      if newName != name { notes.append("table \"\(name)\" is now \"\(newName)\"") }
      do {
        dropped = try UpgradeMatching.compare(rows, now, table: newName, notes: &notes) { problem, row in
          failure(schema, problem: problem, table: newName, row: row)
        } || dropped
      } catch let failure as UpgradeFailure where lenient {
        // A data migration is there to change values: what it changed is said, once a table.
        notes.append("changed \"\(newName)\"; for example, at row \(failure.row ?? "?"): \(failure.problem)")
      }
    }
    return dropped
  }

  private func rows<Database: UpgradeDatabase>(of tables: [UpgradeTable], in database: Database) async throws -> [String: UpgradeRows] {
    var rows: [String: UpgradeRows] = [:]
    for table in tables { rows[table.name] = try await database.rows(of: table.name) }
    return rows
  }

  /// Migrates the same rows again one migration at a time, comparing each migration's rows with
  /// the previous one's: the failure of the first migration that fails or breaks a check, or
  /// what each migration did, in notes that name it.
  private func stepwise<Database: UpgradeDatabase>(
    from start: Start, on database: inout Database, newInstall: [String: String]
  ) async throws -> (failure: UpgradeFailure?, notes: [String]) {
    var ignored: [String] = []
    let schema = start.schema
    var before = try await fill(start, on: &database, notes: &ignored)
    var notes: [String] = []
    for (offset, (migration, through)) in start.steps.enumerated() {
      do {
        try await database.migrate(through)
      } catch {
        return (failure(schema, problem: "migrating failed: \(error)", migration: migration.name), notes)
      }
      var step: [String] = []
      do {
        // The schema is a new install's only at the end.
        let expected = offset == start.steps.count - 1 ? newInstall : try await database.schema()
        _ = try await check(database, against: before, expecting: expected, notes: &step, schema: schema, lenient: migration.data != nil)
      } catch var failure as UpgradeFailure {
        failure.migration = migration.name
        return (failure, notes)
      }
      notes += step.map { "\(migration.name)\(migration.data != nil ? " (Swift)" : ""): \($0)" }
      before = (try await rows(of: try await database.tables(), in: database), before.problems)
    }
    return (nil, notes)
  }

  private func failure(_ schema: String, problem: String, migration: String? = nil, table: String? = nil, row: String? = nil) -> UpgradeFailure {
    UpgradeFailure(schema: schema, migration: migration, table: table, row: row, problem: problem, seed: seed, rowsPerTable: rowsPerTable)
  }
}
