import Foundation
import Observation
import Strata
import Testing

/// A model like the seeds': live queries as stored properties of an `@Observable` class.
@MainActor @Observable
final class RosterModel {
  @ObservationIgnored @FetchAll(Employee.order(by: \.name)) var employees
  @ObservationIgnored @FetchOne(Employee.count()) var employeeCount = 0
  @ObservationIgnored @FetchOne var firstDocument: Document?
}

/// Live queries on real SQLite: updates, isolation from unrelated writes, load, cancellation,
/// lifetime, transactions and errors.
@MainActor @Suite(.serialized) struct LiveQueryTests {
  let log = StatementLog()
  let database: any DatabaseWriter

  init() throws {
    database = try organizationDatabase(configuration: log.configuration)
  }

  @Test func aWriteThatChangesTheRowsUpdatesTheValue() async throws {
    let model = DefaultDatabase.with(database) { RosterModel() }
    #expect(model.employees.map(\.name) == ["Ada", "Grace", "Ken", "Linus"])
    #expect(model.employeeCount == 4)
    #expect(model.firstDocument?.title == "Plan")

    try await database.write { db in
      try Employee.insert { Employee.Draft(name: "Barbara") }.execute(db)
    }
    #expect(await eventually { model.employees.count == 5 })
    #expect(model.employees.map(\.name) == ["Ada", "Barbara", "Grace", "Ken", "Linus"])
    #expect(await eventually { model.employeeCount == 5 })
  }

  @Test func anUnrelatedWriteRunsNoQueryAndATransactionUpdatesOnce() async throws {
    let names = FetchAll(Employee.order(by: \.name).select(\.name), database: database)
    let query = #"SELECT "employees"."name" FROM "employees""#
    #expect(await eventually { log.count(query) == 1 })

    for body in ["a", "b", "c"] {
      try await database.write { try Comment.insert { Comment.Draft(body: body) }.execute($0) }
    }
    await settle()
    #expect(log.count(query) == 1)

    try await database.write { db in
      for name in ["X", "Y", "Z"] { try Employee.insert { Employee.Draft(name: name) }.execute(db) }
    }
    #expect(await eventually { names.wrappedValue.count == 7 })
    await settle()
    #expect(log.count(query) == 2)
  }

  @Test func loadReplacesTheQueryAtomically() async throws {
    let names = FetchAll(Employee.order(by: \.name).select(\.name), database: database)
    #expect(names.wrappedValue == ["Ada", "Grace", "Ken", "Linus"])
    try await names.load(Employee.where { $0.managerID.eq(2) }.order(by: \.name).select(\.name))
    #expect(names.wrappedValue == ["Ken", "Linus"])
    try await database.write { try Employee.insert { Employee.Draft(name: "Zed") }.execute($0) }
    await settle()
    #expect(names.wrappedValue == ["Ken", "Linus"])
    try await database.write { try Employee.insert { Employee.Draft(name: "Kay", managerID: 2) }.execute($0) }
    #expect(await eventually { names.wrappedValue == ["Kay", "Ken", "Linus"] })
  }

  @Test func cancellingTheTaskStopsObserving() async throws {
    let names = FetchAll(Employee.none.select(\.name), database: database)
    #expect(names.wrappedValue.isEmpty)
    let task = Task { try await names.load(Employee.order(by: \.id).select(\.name)).task }
    #expect(await eventually { names.wrappedValue == ["Ada", "Grace", "Linus", "Ken"] })
    let query = #"SELECT "employees"."name" FROM "employees" ORDER BY"#
    let before = log.count(query)
    #expect(before == 1)
    task.cancel()
    #expect(await (try? task.value) == nil)
    try await database.write { try Employee.insert { Employee.Draft(name: "Zed") }.execute($0) }
    await settle()
    #expect(log.count(query) == before)
    #expect(names.wrappedValue.count == 4)
  }

  @Test func releasingTheOwnerStopsObservingAndFreesIt() async throws {
    weak var released: RosterModel?
    do {
      let model = DefaultDatabase.with(database) { RosterModel() }
      released = model
      #expect(model.employees.count == 4)
    }
    #expect(released == nil)
    let before = log.count(#"FROM "employees" ORDER BY"#)
    try await database.write { try Employee.insert { Employee.Draft(name: "Zed") }.execute($0) }
    await settle()
    #expect(log.count(#"FROM "employees" ORDER BY"#) == before)
  }

  @Test func aFailingQueryKeepsTheLastValueAndReportsTheError() async throws {
    let names = FetchAll(Employee.order(by: \.id).select(\.name), database: database)
    #expect(names.wrappedValue.count == 4)
    let broken = Employee.where { sql("no_such_function(\($0.id))", as: Bool.self) }.select(\.name)
    await #expect(throws: (any Error).self) { try await names.load(broken) }
    #expect(names.wrappedValue == ["Ada", "Grace", "Linus", "Ken"])
    #expect(names.loadError.map { "\($0)".contains("no such function") } == true)
    try await names.load(Employee.order(by: \.id).select(\.name))
    #expect(names.loadError == nil)
  }

  @Test func aQueryOfNothingRunsNothingUntilLoaded() async throws {
    let before = log.all.count
    let later = FetchAll(Employee.none, database: database)
    #expect(later.wrappedValue.isEmpty)
    #expect(log.all.count == before)
    try await later.load(Employee.where { $0.salary > 250_000 })
    #expect(later.wrappedValue.map(\.name) == ["Ada"])
  }

  @Test func theDefaultDatabaseIsTheLaunchOneUnlessATaskOverridesIt() throws {
    // No other test sets the launch default, so this one can check its absence.
    let orphan = FetchAll(Employee.select(\.name))
    #expect(orphan.wrappedValue.isEmpty)
    #expect(orphan.loadError.map { "\($0)".contains("DefaultDatabase.set") } == true)

    DefaultDatabase.set(database)
    defer { DefaultDatabase.set(nil) }
    #expect(FetchOne(Employee.count()).wrappedValue == 4)
    let other = try organizationDatabase()
    try other.write { try Employee.delete().execute($0) }
    #expect(DefaultDatabase.with(other) { FetchOne(Employee.count()).wrappedValue } == 0)
    #expect(FetchOne(wrappedValue: -1, Employee.count()).wrappedValue == 4)
  }

  @Test func valuesArriveOnTheMainThreadByDefault() async throws {
    let names = FetchAll(Employee.select(\.name), database: database)
    let onMain = MainThreadCheck()
    withObservationTracking { _ = names.wrappedValue } onChange: { onMain.record() }
    try await database.write { try Employee.insert { Employee.Draft(name: "Zed") }.execute($0) }
    #expect(await eventually { names.wrappedValue.count == 5 })
    #expect(onMain.value == true)

    let immediate = FetchAll(Employee.select(\.name), database: database, delivery: .immediately)
    let offMain = MainThreadCheck()
    withObservationTracking { _ = immediate.wrappedValue } onChange: { offMain.record() }
    try await database.write { try Employee.insert { Employee.Draft(name: "Zoe") }.execute($0) }
    // The value is stored before it is announced, so the announcement may come a moment later.
    #expect(await eventually { immediate.wrappedValue.count == 6 && offMain.value != nil })
    #expect(offMain.value == false)
  }
}

/// Three queries read together.
struct OrganizationFacts: FetchKeyRequest {
  var minimumSalary: Int64

  struct Value: Sendable {
    var wellPaid: [String] = []
    var commentCount = 0
    var documentTitles: [String] = []
  }

  func fetch(_ db: Database) throws -> Value {
    Value(
      wellPaid: try Employee.where { $0.salary >= minimumSalary }.order(by: \.name).select(\.name).fetchAll(db),
      commentCount: try Comment.fetchCount(db),
      documentTitles: try Document.order(by: \.title).select(\.title).fetchAll(db))
  }
}

/// `@Fetch` requests, file databases and pools, and delivery on the database's queue.
@MainActor @Suite(.serialized) struct LiveRequestTests {
  @Test(arguments: [false, true])
  func aRequestReadsItsQueriesInOneTransactionPerUpdate(pooled: Bool) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-live-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = StatementLog()
    let database = try organizationDatabase(
      .file(directory.appendingPathComponent("db.sqlite").path), pooled: pooled, configuration: log.configuration)

    let facts = Fetch(wrappedValue: OrganizationFacts.Value(), OrganizationFacts(minimumSalary: 200_000), database: database)
    #expect(facts.wrappedValue.wellPaid == ["Ada", "Grace"])
    #expect(facts.wrappedValue.commentCount == 4)
    #expect(facts.wrappedValue.documentTitles == ["Notes", "Plan"])

    let countQuery = #"SELECT count(*) FROM "comments""#
    // A pool's observation finishes starting on the writer (a check for writes that raced the
    // first fetch); an empty write queued after it waits for that.
    try await database.writeWithoutTransaction { _ in }
    let start = log.all.count
    try await database.write { db in
      try Comment.insert { Comment.Draft(body: "New") }.execute(db)
      try Employee.find(3).update { $0.salary = 250_000 }.execute(db)
    }
    #expect(await eventually { facts.wrappedValue.commentCount == 5 })
    #expect(facts.wrappedValue.wellPaid == ["Ada", "Grace", "Linus"])
    await settle()
    // One update: the three queries ran once, together in one transaction.
    let updates = log.transactions(from: start).filter { $0.contains { $0.contains(countQuery) } }
    #expect(updates.count == 1)
    #expect(updates.first?.count == 3)
    #expect(updates.first?.contains { $0.contains(#"FROM "employees" WHERE"#) } == true)
    #expect(updates.first?.contains { $0.contains(#"FROM "documents""#) } == true)
    #expect(log.all.dropFirst(start).filter { $0.contains(countQuery) }.count == 1)

    try await facts.load(OrganizationFacts(minimumSalary: 300_000))
    #expect(facts.wrappedValue.wellPaid == ["Ada"])
  }

  @Test func immediateDeliveryUpdatesOnTheDatabaseQueue() async throws {
    let database = try organizationDatabase()
    let names = FetchAll(Employee.order(by: \.id).select(\.name), database: database, delivery: .immediately)
    #expect(names.wrappedValue.count == 4)
    try await database.write { try Employee.insert { Employee.Draft(name: "Zed") }.execute($0) }
    #expect(await eventually { names.wrappedValue.last == "Zed" })
  }

  @Test func aRowAndAValueWithDefaults() async throws {
    let database = try organizationDatabase()
    let grace = FetchOne(Employee.find(2), database: database)
    let topSalary = FetchOne(wrappedValue: 0, Employee.select { $0.salary.max() ?? 0 }, database: database)
    let nobody = FetchOne(Employee.where { $0.salary > 1_000_000 }.select(\.name), database: database)
    #expect(grace.wrappedValue?.name == "Grace")
    #expect(topSalary.wrappedValue == 300_000)
    #expect(nobody.wrappedValue == nil)
    try await database.write { try Employee.find(2).delete().execute($0) }
    #expect(await eventually { grace.wrappedValue == nil })
    try await grace.load(Employee.find(3))
    #expect(grace.wrappedValue?.name == "Linus")
  }
}
