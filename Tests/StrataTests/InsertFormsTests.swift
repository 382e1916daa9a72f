import Foundation
import Strata
import Testing

/// Inserts of chosen columns, from a select, and their conflict clauses.
@Suite struct InsertFormsTests {
  @Test(arguments: TestDialect.all) func valuesForChosenColumns(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let insert = Employee.insert { ($0.name, $0.managerID) } values: {
        ("Barbara", 1)
        ("Edsger", nil)
        for name in ["Alan", "Tony"] { (name, 2) }
      }
      #expect(
        insert.queryFragment.sql == """
          INSERT INTO "employees" ("name", "managerID") VALUES (?, ?), (?, ?), (?, ?), (?, ?)
          """)
      try await insert.execute(db)
      let added = try await Employee.where { $0.id > 4 }.order(by: \.id).fetchAll(db)
      #expect(added.map(\.name) == ["Barbara", "Edsger", "Alan", "Tony"])
      #expect(added.map(\.managerID) == [1, nil, 2, 2])
      #expect(added.map(\.salary) == [0, 0, 0, 0])

      let one = Comment.insert { $0.body } values: { "Single" }.returning(\.id)
      #expect(try await one.fetchOne(db) == 5)
    }
  }

  @Test(arguments: TestDialect.all) func rowsFromASelect(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let insert = Comment.insert { ($0.parentID, $0.body) } select: {
        Employee.where { $0.managerID.isNot(nil) }.select { ($0.managerID, $0.name + " reports") }
      }
      #expect(
        insert.queryFragment.sql == """
          INSERT INTO "comments" ("parentID", "body") SELECT "employees"."managerID", "employees"."name" || ? \
          FROM "employees" WHERE "employees"."managerID" IS NOT NULL
          """)
      try await insert.execute(db)
      let bodies = try await Comment.where { $0.id > 4 }.order(by: \.id).select(\.body).fetchAll(db)
      #expect(bodies == ["Grace reports", "Linus reports", "Ken reports"])
    }
  }

  /// SQLite's only: PostgreSQL's upsert names its conflict target, and the statement is refused
  /// there before it is sent.
  @Test(arguments: TestDialect.all) func conflictWithoutATargetUpdates(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      try await sql(#"CREATE UNIQUE INDEX "documentTitles" ON "documents"("title")"#).execute(db)
      let insert = Document.insert { Document.Draft(title: "Plan") } onConflictDoUpdate: { $0.title += " (2)" }
      #expect(insert.queryFragment.sql.hasSuffix(#"ON CONFLICT DO UPDATE SET "title" = "documents"."title" || ?"#))
      guard dialect == .sqlite else {
        await #expect(throws: DialectError.self) { try await insert.execute(db) }
        return
      }
      try await insert.execute(db)
      #expect(try await Document.unscoped.order(by: \.id).select(\.title).fetchAll(db) == ["Plan (2)", "Draft", "Notes"])

      let proposed = Document.insert { Document.Draft(title: "Notes", isDeleted: true) } onConflictDoUpdate: {
        $0.isDeleted = $1.isDeleted
      }
      #expect(proposed.queryFragment.sql.hasSuffix(#"ON CONFLICT DO UPDATE SET "isDeleted" = "excluded"."isDeleted""#))
      try await proposed.execute(db)
      #expect(try await Document.unscoped.find(3).fetchOne(db)?.isDeleted == true)
    }
  }

  /// An upsert of several rows with one key twice means what SQLite does on both databases: the
  /// second row updates the row the first inserted (PostgreSQL, which would refuse to update a
  /// row twice in one statement, gets the rows in statements that each hold a key once).
  @Test(arguments: TestDialect.all) func anUpsertWithAKeyTwiceAppliesBothRowsInOrder(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let upsert = Employee.upsert {
        Employee(id: 10, name: "First", managerID: nil, salary: 1)
        Employee(id: 11, name: "Other", managerID: nil, salary: 2)
        Employee(id: 10, name: "Second", managerID: nil, salary: 3)
        Employee(id: 1, name: "Renamed", managerID: nil, salary: 4)
        Employee(id: 10, name: "Third", managerID: nil, salary: 5)
      }
      #expect(try upsert.statements(for: .postgreSQL).count == 3)
      try await upsert.execute(db)
      let rows = try await Employee.where { $0.id.in([1, 10, 11]) }.order(by: \.id).select { ($0.name, $0.salary) }.fetchAll(db)
      #expect(rows.map(\.0) == ["Renamed", "Third", "Other"])
      #expect(rows.map(\.1) == [4, 5, 2])
      // With RETURNING, a row for each row of the upsert, in order.
      let returning = Employee.upsert {
        Employee(id: 12, name: "A", managerID: nil, salary: 1)
        Employee(id: 12, name: "B", managerID: nil, salary: 2)
      }.returning(\.name)
      #expect(try await returning.fetchAll(db) == ["A", "B"])
    }
  }

  @Test(arguments: TestDialect.all) func conflictUpdatesOnlyWhereAllowed(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      try await sql(#"CREATE UNIQUE INDEX "liveTitles" ON "documents"("title") WHERE NOT "isDeleted""#).execute(db)
      let revive = Document.insert {
        Document.Draft(title: "Plan", isDeleted: false)
        Document.Draft(title: "Notes", isDeleted: false)
      } onConflict: {
        $0.title
      } where: {
        !$0.isDeleted
      } doUpdate: {
        $0.title += " (kept)"
      } where: { existing in
        existing.title.neq("Notes")
      }
      #expect(
        revive.queryFragment.sql.hasSuffix(
          #"ON CONFLICT ("title") WHERE NOT "documents"."isDeleted" DO UPDATE SET "title" = "documents"."title" || ? WHERE "documents"."title" <> ?"#))
      try await revive.execute(db)
      #expect(try await Document.unscoped.order(by: \.id).select(\.title).fetchAll(db) == ["Plan (kept)", "Draft", "Notes"])

      let raise = Employee.insert {
        Employee(id: 2, name: "Grace", managerID: 1, salary: 250_000)
        Employee(id: 3, name: "Linus", managerID: 2, salary: 100_000)
      } onConflict: {
        $0.id
      } where: { _ in
      } doUpdate: {
        $0.salary = $1.salary
      } where: { existing, proposed in
        proposed.salary > existing.salary
      }
      #expect(
        raise.queryFragment.sql.hasSuffix(
          #"ON CONFLICT ("id") DO UPDATE SET "salary" = "excluded"."salary" WHERE "excluded"."salary" > "employees"."salary""#))
      try await raise.execute(db)
      #expect(try await Employee.order(by: \.id).select(\.salary).fetchAll(db) == [300_000, 250_000, 150_000, 150_000])

      let bump = Employee.insert { Employee(id: 4, name: "Ken", managerID: 2, salary: 0) } onConflict: {
        $0.id
      } doUpdate: {
        $0.salary += 1
      }
      try await bump.execute(db)
      #expect(try await Employee.find(4).select(\.salary).fetchOne(db) == 150_001)
    }
  }

  @Test(arguments: TestDialect.all) func insertSelectWithAConflictClauseStaysUnambiguous(_ dialect: TestDialect) async throws {
    try await dialect.database(seeding: organizationRows()) { db throws in
      let copy = Employee.insert { ($0.id, $0.name) } select: {
        Employee.join(Comment.all) { $0.id.eq($1.id) }.select { ($0.id, $1.body) }
      } onConflict: {
        $0.id
      } doUpdate: {
        $0.name = $1.name
      }
      #expect(copy.queryFragment.sql.contains(#"SELECT * FROM (SELECT "employees"."id", "comments"."body" FROM"#))
      #expect(copy.queryFragment.sql.contains(#") WHERE 1 ON CONFLICT ("id") DO UPDATE SET "name" = "excluded"."name""#))
      try await copy.execute(db)
      #expect(try await Employee.order(by: \.id).select(\.name).fetchAll(db) == ["Root", "Reply", "Nested", "Other"])
    }
  }
}
