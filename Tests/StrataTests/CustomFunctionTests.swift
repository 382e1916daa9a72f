import Synchronization
import Foundation
import Strata
import Testing

/// SQL functions written in Swift: seed 004's `exclaim`, and `mode`, `median` and a weighted
/// average as aggregates, with NULLs and empty groups, called through the builder.
let exclaim = ScalarFunction("exclaim", isDeterministic: true) { (text: String) -> String in text + "!" }

let initials = ScalarFunction("initials") { (first: String, last: String?) -> String in
  String(first.prefix(1)) + (last.map { String($0.prefix(1)) } ?? "")
}

/// Seed 004's `isPastDue(reminder:)`: a whole row, passed as its columns.
let isWellPaid = ScalarFunction("is_well_paid") { (employee: Employee) -> Bool in
  employee.salary >= 200_000 && employee.name != "Ada"
}

let median = AggregateFunction("median") { (values: [Int64?]) -> Double? in
  let sorted = values.compactMap { $0 }.sorted()
  guard !sorted.isEmpty else { return nil }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
}

let mode = AggregateFunction("mode") { (values: [String?]) -> String? in
  var counts: [String: Int] = [:]
  for value in values.compactMap({ $0 }) { counts[value, default: 0] += 1 }
  return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
}

let weightedAverage = AggregateFunction("weighted_average") { (rows: [(Int64, Double)]) -> Double? in
  let weight = rows.reduce(0) { $0 + $1.1 }
  return weight == 0 ? nil : rows.reduce(0) { $0 + Double($1.0) * $1.1 } / weight
}

/// StructuredQueries' `throwing()`: the error's description is the statement's error.
let failing = ScalarFunction("failing") { () throws -> String in throw Oops() }

struct Oops: LocalizedError {
  var errorDescription: String? { "Oops!" }
}

/// StructuredQueries' `log(_:)`: a function with no result, called for its effect.
let loggedMessages = Mutex<[String]>([])
let log = ScalarFunction("log") { (message: String) in loggedMessages.withLock { $0.append(message) } }

/// StructuredQueries' `jsonCapitalize(_:)` and `jsonDropFirst(_:_:)`: arguments and results
/// through JSON, mixed with a plain argument; `jsonCount(_:)` with an optional one.
let jsonCapitalize = ScalarFunction(
  "jsonCapitalize", as: ((JSONRepresentation<[String]>) -> JSONRepresentation<[String]>).self
) { strings in strings.map(\.capitalized) }
let jsonDropFirst = ScalarFunction(
  "jsonDropFirst", as: ((JSONRepresentation<[String]>, Int) -> JSONRepresentation<[String]>).self
) { strings, count in Array(strings.dropFirst(count)) }
let jsonCount = ScalarFunction("jsonCount", as: ((JSONRepresentation<[String]>?) -> Int).self) { strings in
  strings?.count ?? -1
}
/// StructuredQueries' `seconds`: a result through `Date.UnixTimeRepresentation`.
let epoch = ScalarFunction("epoch", as: (() -> Date.UnixTimeRepresentation).self) { Date(timeIntervalSinceReferenceDate: 0) }

/// StructuredQueries' `jsonJoined(_:)`: an aggregate over JSON values.
let jsonJoined = AggregateFunction(
  "jsonJoined", as: (([JSONRepresentation<[String]>]) -> JSONRepresentation<[String]>).self
) { (arrays: [[String]]) in arrays.flatMap { $0 } }

let sumOfIDs = AggregateFunction("sum_of") { (values: [Int64]) -> Int64 in values.reduce(0, +) }

let failingAggregate = AggregateFunction("failing_aggregate") { (values: [Int]) throws -> Int in
  if values.count > 2 { throw Oops() }
  return 0
}

/// A migrated in-memory database with `functions` registered and `rows` inserted.
func employeeDatabase(functions: [any CustomFunction], @SeedsBuilder _ rows: () -> Seeds) throws -> any DatabaseWriter {
  let database = try openDatabase(.inMemory, functions: functions)
  try database.migrate(StrataMigrations.all)
  try database.write { db in try db.seed(rows) }
  return database
}

@Suite struct CustomFunctionTests {
  let database: any DatabaseWriter

  init() throws {
    database = try employeeDatabase(
      functions: [
        exclaim, initials, isWellPaid, median, mode, weightedAverage, failing, log, jsonCapitalize, jsonDropFirst,
        jsonCount, epoch, jsonJoined, sumOfIDs, failingAggregate,
      ]) {
        Employee.Draft(name: "Ada", salary: 300_000)
        Employee.Draft(name: "Grace", managerID: 1, salary: 200_000)
        Employee.Draft(name: "Linus", managerID: 2, salary: 150_000)
        Employee.Draft(name: "Ken", managerID: 2, salary: 150_000)
        Employee.Draft(name: "Barbara", managerID: 2, salary: 100_000)
      }
  }

  @Test func aScalarFunctionWithTypedArguments() throws {
    let query = Employee.order(by: \.id).select { exclaim($0.name) }
    expectSQL(query, #"SELECT "exclaim"("employees"."name") FROM "employees" ORDER BY "employees"."id""#)
    #expect(try database.read { try query.fetchAll($0) } == ["Ada!", "Grace!", "Linus!", "Ken!", "Barbara!"])
    // Values and expressions mix, and a NULL reaches an optional argument as nil.
    let pairs = try database.read { db in
      try Employee.where { $0.id <= 2 }.order(by: \.id).select { initials($0.name, "Lovelace") }.fetchAll(db)
    }
    #expect(pairs == ["AL", "GL"])
    #expect(try database.read { try Values(initials("Grace", String?.none)).fetchOne($0) } == "G")
    #expect(try database.read { try Employee.where { exclaim($0.name).eq("Ken!") }.fetchAll($0) }.map(\.name) == ["Ken"])
  }

  @Test func aWholeRowIsPassedAsItsColumns() throws {
    let query = Employee.where { isWellPaid($0) }.select(\.name)
    expectSQL(
      query,
      #"SELECT "employees"."name" FROM "employees" WHERE "is_well_paid"("employees"."id", "employees"."name", "employees"."managerID", "employees"."salary")"#)
    #expect(try database.read { try query.fetchAll($0) } == ["Grace"])
    #expect(isWellPaid.argumentCount == 4)
  }

  @Test func aggregatesOverGroupsWithNullsAndEmptyGroups() throws {
    let query = Employee.group(by: \.managerID).order(by: \.managerID).select { ($0.managerID, median($0.salary), $0.count()) }
    expectSQL(
      query,
      #"SELECT "employees"."managerID", "median"("employees"."salary"), count("employees"."id") FROM "employees" GROUP BY "employees"."managerID" ORDER BY "employees"."managerID""#)
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0) == [nil, 1, 2])
    #expect(rows.map(\.1) == [300_000, 200_000, 150_000])
    // An empty table gives one group of no rows.
    #expect(try database.read { try Employee.where { $0.id > 99 }.select { median($0.salary) }.fetchOne($0) } == .some(nil))
    // NULLs are passed to the body, which here skips them.
    #expect(try database.read { try Values(median(Int64?.none)).fetchOne($0) } == .some(nil))
    #expect(try database.read { try Employee.select { mode($0.salary.cast(as: String.self)) }.fetchOne($0) } == "150000")
  }

  @Test func anAggregateOfSeveralArguments() throws {
    let query = Employee.where { $0.managerID.eq(2) }.select { weightedAverage($0.salary, $0.id.cast(as: Double.self)) }
    // (150,000·3 + 150,000·4 + 100,000·5) / 12
    #expect(try database.read { try query.fetchOne($0) } == .some(1_550_000.0 / 12))
  }

  @Test func anArgumentOfTheWrongTypeIsAnErrorThatNamesIt() throws {
    #expect {
      try database.read { try Values(exclaim(SQLQuery<String>(raw: "42"))).fetchOne($0) }
    } throws: { error in
      "\(error)".contains("exclaim(): argument 1: expected String, found INTEGER 42")
    }
  }

  @Test func aFunctionCanBeUsedByTheSchema() throws {
    // A CHECK that calls a function written in Swift, declared deterministic.
    try database.write { db in
      try db.execute(sql: #"CREATE TABLE "shouts" ("text" TEXT NOT NULL CHECK ("exclaim"("text") <> '!')) STRICT"#)
      try db.execute(sql: #"INSERT INTO "shouts" VALUES ('hey')"#)
      #expect(throws: (any Error).self) { try db.execute(sql: #"INSERT INTO "shouts" VALUES ('')"#) }
    }
  }

  @Test func anErrorTheBodyThrowsIsTheStatementsErrorWithItsMessage() throws {
    expectSQL(Values(failing()), #"SELECT "failing"()"#)
    #expect {
      try database.read { try Values(failing()).fetchOne($0) }
    } throws: { error in
      "\(error)".contains("Oops!")
    }
    // An aggregate's too, whether it throws for a row or for the result.
    #expect(try database.read { try Employee.where { $0.id <= 2 }.select { failingAggregate($0.id) }.fetchOne($0) } == 0)
    #expect {
      try database.read { try Employee.select { failingAggregate($0.id) }.fetchOne($0) }
    } throws: { error in
      "\(error)".contains("Oops!")
    }
  }

  @Test func aFunctionWithNoResultRunsForItsEffectInATrigger() throws {
    loggedMessages.withLock { $0 = [] }
    expectSQL(Values(log("Hello, world!")), #"SELECT "log"('Hello, world!')"#)
    #expect(try database.read { try Values(log("Hello, world!")).fetchOne($0) } == .some(nil))
    try database.write { db in
      try Employee.createTemporaryTrigger(
        after: .insert { new in
          Values(log(new.name))
        }
      ).execute(db)
      try Employee.insert { Employee.Draft(name: "Edsger", salary: 1) }.execute(db)
      try Employee.insert { Employee.Draft(name: "Niklaus", salary: 2) }.execute(db)
    }
    #expect(loggedMessages.withLock { $0 } == ["Hello, world!", "Edsger", "Niklaus"])
  }

  @Test func argumentsAndResultsThroughRepresentations() throws {
    let capitalized = Values(jsonCapitalize(JSONRepresentation(queryOutput: ["hello", "world"])))
    expectSQL(capitalized, #"SELECT "jsonCapitalize"('["hello","world"]')"#)
    #expect(try database.read { try capitalized.fetchOne($0) } == ["Hello", "World"])
    let dropped = Values(jsonDropFirst(JSONRepresentation(queryOutput: ["hello", "world", "goodnight", "moon"]), 2))
    #expect(try database.read { try dropped.fetchOne($0) } == ["goodnight", "moon"])
    #expect(try database.read { try Values(jsonCount(JSONRepresentation(queryOutput: ["a", "b"]))).fetchOne($0) } == 2)
    #expect(try database.read { try Values(jsonCount(JSONRepresentation<[String]>?.none)).fetchOne($0) } == -1)
    #expect(try database.read { try Values(epoch()).fetchOne($0) } == Date(timeIntervalSinceReferenceDate: 0))
    // The Unix time is what SQL sees: 2001-01-01 is 978307200 seconds after 1970.
    #expect(try database.read { try Int.fetchOne($0, sql: #"SELECT "epoch"()"#) } == 978_307_200)
  }

  @Test func anAggregateOverJSONValuesAndDistinctArguments() throws {
    let arrays = Employee.where { $0.id <= 3 }.select { _ in
      jsonJoined(jsonCapitalize(JSONRepresentation(queryOutput: ["x"])))
    }
    #expect(try database.read { try arrays.fetchOne($0) } == ["X", "X", "X"])
    // DISTINCT: each salary once.
    let distinct = Employee.select { sumOfIDs($0.salary, distinct: true) }
    expectSQL(distinct, #"SELECT "sum_of"(DISTINCT "employees"."salary") FROM "employees""#)
    #expect(try database.read { try distinct.fetchOne($0) } == 750_000)
    #expect(try database.read { try Employee.select { sumOfIDs($0.salary) }.fetchOne($0) } == 900_000)
    let filtered = Employee.select { sumOfIDs($0.salary, filter: $0.managerID.eq(2)) }
    expectSQL(
      filtered, #"SELECT "sum_of"("employees"."salary") FILTER (WHERE "employees"."managerID" = 2) FROM "employees""#)
    #expect(try database.read { try filtered.fetchOne($0) } == 400_000)
  }
}

/// StructuredQueries' `joinTags(_:)` and `isJSONValid(_:_:)`: a group's rows as a JSON array, and
/// a whole row as a JSON object.
let joinTags = ScalarFunction("joinTags", as: ((JSONArray<Tag>) -> String).self) { tags in
  tags.map(\.name).joined(separator: ", ")
}
let isNamed = ScalarFunction("isNamed", as: ((JSONObject<Employee>, Bool) -> Bool).self) { employee, override in
  !employee.name.isEmpty || override
}

enum Boss: AliasName {}

/// StructuredQueries' `isValidAlias(_:)`: a row of an aliased table, declared through the alias
/// (qualified: GRDB, which Strata exports, has a `TableAlias` of its own).
let isWellPaidBoss = ScalarFunction("is_well_paid", as: ((StrataCore.TableAlias<Employee, Boss>) -> Bool).self) { employee in
  employee.salary >= 200_000 && employee.name != "Ada"
}

@Suite struct CustomFunctionJSONTests {
  @Test func rowsAsJSONArraysAndObjectsAndAliasedRows() throws {
    let database = try openDatabase(.inMemory, functions: [joinTags, isNamed, isWellPaid])
    try database.migrate(StrataMigrations.all)
    try database.write { db in
      try db.seed {
        Tag.Draft(name: "car")
        Tag.Draft(name: "kids")
        Employee.Draft(name: "Ada", salary: 300_000)
      }
      let joined = Tag.select { joinTags($0.jsonGroupArray()) }
      expectSQL(
        joined,
        #"SELECT "joinTags"(json_group_array(json_object('id', "tags"."id", 'name', "tags"."name")) FILTER (WHERE "tags"."id" IS NOT NULL)) FROM "tags""#)
      #expect(try joined.fetchOne(db) == "car, kids")
      #expect(try Employee.select { isNamed($0.jsonObject(), false) }.fetchOne(db) == true)
      // A function over a row of an aliased table: its columns under the alias.
      let aliased = Employee.as(Boss.self).select { isWellPaidBoss($0) }
      expectSQL(
        aliased,
        #"SELECT "is_well_paid"("Boss"."id", "Boss"."name", "Boss"."managerID", "Boss"."salary") FROM "employees" AS "Boss""#)
      #expect(try aliased.fetchOne(db) == false)
    }
  }
}
