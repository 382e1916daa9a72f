import Foundation
import Strata
import Testing

/// Inserts of chosen columns, from a select, and their conflict clauses.
@Suite struct InsertFormsTests {
  let database: any DatabaseWriter

  init() throws {
    database = try organizationDatabase()
  }

  @Test func valuesForChosenColumns() throws {
    let insert = Employee.insert { ($0.name, $0.managerID) } values: {
      ("Barbara", 1)
      ("Edsger", nil)
      for name in ["Alan", "Tony"] { (name, 2) }
    }
    #expect(
      insert.queryFragment.sql == """
        INSERT INTO "employees" ("name", "managerID") VALUES (?, ?), (?, ?), (?, ?), (?, ?)
        """)
    try database.write { try insert.execute($0) }
    let added = try database.read { try Employee.where { $0.id > 4 }.order(by: \.id).fetchAll($0) }
    #expect(added.map(\.name) == ["Barbara", "Edsger", "Alan", "Tony"])
    #expect(added.map(\.managerID) == [1, nil, 2, 2])
    #expect(added.map(\.salary) == [0, 0, 0, 0])

    let one = Comment.insert { $0.body } values: { "Single" }.returning(\.id)
    #expect(try database.write { try one.fetchOne($0) } == 5)
  }

  @Test func rowsFromASelect() throws {
    let insert = Comment.insert { ($0.parentID, $0.body) } select: {
      Employee.where { $0.managerID.isNot(nil) }.select { ($0.managerID, $0.name + " reports") }
    }
    #expect(
      insert.queryFragment.sql == """
        INSERT INTO "comments" ("parentID", "body") SELECT "employees"."managerID", "employees"."name" || ? \
        FROM "employees" WHERE "employees"."managerID" IS NOT NULL
        """)
    try database.write { try insert.execute($0) }
    let bodies = try database.read { try Comment.where { $0.id > 4 }.order(by: \.id).select(\.body).fetchAll($0) }
    #expect(bodies == ["Grace reports", "Linus reports", "Ken reports"])
  }

  @Test func conflictWithoutATargetUpdates() throws {
    try database.write { try sql(#"CREATE UNIQUE INDEX "documentTitles" ON "documents"("title")"#).execute($0) }
    let insert = Document.insert { Document.Draft(title: "Plan") } onConflictDoUpdate: { $0.title += " (2)" }
    #expect(insert.queryFragment.sql.hasSuffix(#"ON CONFLICT DO UPDATE SET "title" = "documents"."title" || ?"#))
    try database.write { try insert.execute($0) }
    #expect(try database.read { try Document.unscoped.order(by: \.id).select(\.title).fetchAll($0) } == ["Plan (2)", "Draft", "Notes"])

    let proposed = Document.insert { Document.Draft(title: "Notes", isDeleted: true) } onConflictDoUpdate: {
      $0.isDeleted = $1.isDeleted
    }
    #expect(proposed.queryFragment.sql.hasSuffix(#"ON CONFLICT DO UPDATE SET "isDeleted" = "excluded"."isDeleted""#))
    try database.write { try proposed.execute($0) }
    #expect(try database.read { try Document.unscoped.find(3).fetchOne($0) }?.isDeleted == true)
  }

  @Test func conflictUpdatesOnlyWhereAllowed() throws {
    try database.write { db in
      try sql(#"CREATE UNIQUE INDEX "liveTitles" ON "documents"("title") WHERE NOT "isDeleted""#).execute(db)
    }
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
    try database.write { try revive.execute($0) }
    #expect(try database.read { try Document.unscoped.order(by: \.id).select(\.title).fetchAll($0) } == ["Plan (kept)", "Draft", "Notes"])

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
    try database.write { try raise.execute($0) }
    #expect(try database.read { try Employee.order(by: \.id).select(\.salary).fetchAll($0) } == [300_000, 250_000, 150_000, 150_000])

    let bump = Employee.insert { Employee(id: 4, name: "Ken", managerID: 2, salary: 0) } onConflict: {
      $0.id
    } doUpdate: {
      $0.salary += 1
    }
    try database.write { try bump.execute($0) }
    #expect(try database.read { try Employee.find(4).select(\.salary).fetchOne($0) } == 150_001)
  }

  @Test func insertSelectWithAConflictClauseStaysUnambiguous() throws {
    let copy = Employee.insert { ($0.id, $0.name) } select: {
      Employee.join(Comment.all) { $0.id.eq($1.id) }.select { ($0.id, $1.body) }
    } onConflict: {
      $0.id
    } doUpdate: {
      $0.name = $1.name
    }
    #expect(copy.queryFragment.sql.contains(#"SELECT * FROM (SELECT "employees"."id", "comments"."body" FROM"#))
    #expect(copy.queryFragment.sql.contains(#") WHERE 1 ON CONFLICT ("id") DO UPDATE SET "name" = "excluded"."name""#))
    try database.write { try copy.execute($0) }
    #expect(try database.read { try Employee.order(by: \.id).select(\.name).fetchAll($0) } == ["Root", "Reply", "Nested", "Other"])
  }
}
