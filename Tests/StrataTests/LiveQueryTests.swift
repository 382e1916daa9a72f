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

  @Test func withoutADatabaseTheErrorSaysWhatToDo() {
    let names = FetchAll(Employee.select(\.name))
    #expect(names.wrappedValue.isEmpty)
    #expect(names.loadError.map { "\($0)".contains("DefaultDatabase.set") } == true)
  }
}
