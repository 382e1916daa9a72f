import Synchronization
import Foundation
import Strata
import Testing

// StructuredQueries' `@DatabaseFunction` cases, as Strata spells them: the same Swift
// function under `// @DatabaseFunction`, called in queries with its labels and defaults through
// the value the generator writes (`concatFunction` for StructuredQueries' `$concat`).

// @DatabaseFunction
func isEnabled() -> Bool { true }

// @DatabaseFunction
func dateTime(_ format: String? = nil) -> Date? { Date(timeIntervalSince1970: 0) }

// @DatabaseFunction
func concat(first: String = "", second: String = "") -> String { first + second }

// @DatabaseFunction
func throwing() throws -> String { throw Oops() }

// @DatabaseFunction("default", isDeterministic: true)
func defaultValue() -> Int { 42 }

// @DatabaseFunction
func sum(of values: some Sequence<Int>) -> Int { values.reduce(into: 0, +=) }

// @DatabaseFunction
func joined(_ arguments: some Sequence<(String, separator: String)>) -> String? {
  var result: String?
  for (string, separator) in arguments {
    result = result.map { $0 + separator + string } ?? string
  }
  return result
}

// @DatabaseFunction
func isWellPaidEmployee(_ employee: Employee, _ override: Bool = false) -> Bool {
  employee.salary >= 200_000 || override
}

enum Payroll {
  /// A static function of a type, named like a column: its call site is `Payroll.raiseFunction`.
  // @DatabaseFunction
  static func raise(salary: Int64, by percent: Int = 10) -> Int64 { salary + salary * Int64(percent) / 100 }
}

let recorded = Mutex<[String]>([])

/// StructuredQueries' computed-property form: used in a query without a call.
// @DatabaseFunction
var unixEpoch: Date { Date(timeIntervalSince1970: 0) }

enum Clock {
  // @DatabaseFunction("clockTicks")
  static var ticks: Int { get throws { 7 } }
}

// @DatabaseFunction
func record(_ message: String) { recorded.withLock { $0.append(message) } }

@Suite struct DatabaseFunctionTests {
  let database: any DatabaseWriter

  init() throws {
    database = try employeeDatabase(
      functions: [
        isEnabledFunction, dateTimeFunction, concatFunction, throwingFunction, defaultValueFunction, sumFunction,
        joinedFunction, isWellPaidEmployeeFunction, Payroll.raiseFunction, recordFunction, unixEpochFunction, Clock.ticksFunction,
      ]) {
        Employee.Draft(name: "Ada", salary: 300_000)
        Employee.Draft(name: "Grace", managerID: 1, salary: 200_000)
        Employee.Draft(name: "Linus", managerID: 2, salary: 150_000)
      }
  }

  @Test func noArgumentsAndADefaultedOne() throws {
    expectSQL(Values(isEnabledFunction()), #"SELECT "isEnabled"()"#)
    #expect(try database.read { try Values(isEnabledFunction()).fetchOne($0) } == true)
    expectSQL(Values(dateTimeFunction()), #"SELECT "dateTime"(NULL)"#)
    #expect(try database.read { try Values(dateTimeFunction()).fetchOne($0) } == .some(Date(timeIntervalSince1970: 0)))
    expectSQL(Values(defaultValueFunction()), #"SELECT "default"()"#)
    #expect(defaultValueFunction.isDeterministic)
    #expect(try database.read { try Values(defaultValueFunction()).fetchOne($0) } == 42)
  }

  @Test func aComputedPropertyIsAnExpressionWithoutACall() throws {
    expectSQL(Values(unixEpochFunction), #"SELECT "unixEpoch"()"#)
    #expect(try database.read { try Values(unixEpochFunction).fetchOne($0) } == Date(timeIntervalSince1970: 0))
    #expect(try database.read { try Values(unixEpochFunction()).fetchOne($0) } == Date(timeIntervalSince1970: 0))
    let query = Employee.where { _ in Clock.ticksFunction.eq(7) }.order(by: \.id).select { ($0.name, Clock.ticksFunction) }
    expectSQL(
      query,
      #"SELECT "employees"."name", "clockTicks"() FROM "employees" WHERE "clockTicks"() = 7 ORDER BY "employees"."id""#)
    #expect(try database.read { try query.fetchAll($0) }.map(\.1) == [7, 7, 7])
  }

  @Test func labelsAndDefaultsAsTheSwiftFunctionHasThem() throws {
    let labeled = Values(concatFunction(first: "foo", second: "bar"))
    expectSQL(labeled, #"SELECT "concat"('foo', 'bar')"#)
    #expect(try database.read { try labeled.fetchOne($0) } == "foobar")
    // StructuredQueries' erased form, without labels, and defaults.
    #expect(try database.read { try Values(concatFunction("foo", "bar")).fetchOne($0) } == "foobar")
    #expect(try database.read { try Values(concatFunction(second: "bar")).fetchOne($0) } == "bar")
    let names = Employee.order(by: \.id).select { concatFunction(first: $0.name, second: "!") }
    expectSQL(names, #"SELECT "concat"("employees"."name", '!') FROM "employees" ORDER BY "employees"."id""#)
    #expect(try database.read { try names.fetchAll($0) } == ["Ada!", "Grace!", "Linus!"])
    let raised = Employee.order(by: \.id).select { Payroll.raiseFunction(salary: $0.salary) }
    expectSQL(raised, #"SELECT "raise"("employees"."salary", 10) FROM "employees" ORDER BY "employees"."id""#)
    #expect(try database.read { try raised.fetchAll($0) } == [330_000, 220_000, 165_000])
  }

  @Test func aThrowingFunctionFailsTheStatementWithItsMessage() throws {
    #expect {
      try database.read { try Values(throwingFunction()).fetchOne($0) }
    } throws: { error in
      "\(error)".contains("Oops!")
    }
  }

  @Test func aWholeRowAndAPlainArgument() throws {
    let query = Employee.order(by: \.id).select { ($0.name, isWellPaidEmployeeFunction($0, $0.id.eq(3))) }
    expectSQL(
      query,
      #"SELECT "employees"."name", "isWellPaidEmployee"("employees"."id", "employees"."name", "employees"."managerID", "employees"."salary", "employees"."id" = 3) FROM "employees" ORDER BY "employees"."id""#)
    #expect(try database.read { try query.fetchAll($0) }.map(\.1) == [true, true, true])
    #expect(try database.read { try Employee.where { isWellPaidEmployeeFunction($0) }.fetchCount($0) } == 2)
  }

  @Test func aggregatesWithLabelsDistinctAndRowTuples() throws {
    let sum = Employee.select { sumFunction(of: $0.id) }
    expectSQL(sum, #"SELECT "sum"("employees"."id") FROM "employees""#)
    #expect(try database.read { try sum.fetchOne($0) } == 6)
    let distinct = Employee.select { sumFunction($0.managerID.ifnull(0), distinct: true) }
    expectSQL(distinct, #"SELECT "sum"(DISTINCT ifnull("employees"."managerID", 0)) FROM "employees""#)
    #expect(try database.read { try distinct.fetchOne($0) } == 3)
    let joined = Employee.order(by: \.id).select { joinedFunction($0.name, separator: ", ") }
    expectSQL(joined, #"SELECT "joined"("employees"."name", ', ') FROM "employees" ORDER BY "employees"."id""#)
    #expect(try database.read { try joined.fetchOne($0) } == "Ada, Grace, Linus")
  }

  @Test func aFunctionWithNoResultInATrigger() throws {
    recorded.withLock { $0 = [] }
    try database.write { db in
      try Employee.createTemporaryTrigger(after: .insert { new in Values(recordFunction(new.name)) }).execute(db)
      try Employee.insert { Employee.Draft(name: "Barbara", salary: 1) }.execute(db)
    }
    #expect(recorded.withLock { $0 } == ["Barbara"])
  }
}
