import Foundation
import Strata
import Testing

/// SQLite's JSON functions: arrays of values and of whole rows, objects, and JSON columns.
@Suite struct JSONTests {
  let database: any DatabaseWriter

  init() throws {
    database = try catalogDatabase()
    try database.write(seedCatalog)
  }

  @Test func anArrayOfValues() throws {
    let query = Item.where { $0.categoryID.eq(1) }.select { ($0.title.jsonGroupArray(), $0.createdAt.jsonGroupArray()) }
    #expect(
      query.queryFragment.sql.hasPrefix(
        #"SELECT json_group_array("items"."title"), json_group_array("items"."createdAt") FROM"#))
    let row = try database.read { try query.fetchOne($0) }
    #expect(row?.0.sorted() == ["Cable", "Phone"])
    #expect(row?.1.sorted() == [referenceDate, referenceDate.addingTimeInterval(60)])
  }

  @Test func anArrayOfWholeRowsPerGroup() throws {
    let query = Category
      .group(by: \.id)
      .leftJoin(Item.all) { $0.id.eq($1.categoryID) }
      .order(by: \.id)
      .select { ($0.name, $1.jsonGroupArray()) }
    #expect(
      query.queryFragment.sql.hasPrefix(
        #"SELECT "categories"."name", json_group_array(json_object(?, "items"."id", ?, "items"."categoryID", "#))
    #expect(query.queryFragment.sql.contains(#") FILTER (WHERE "items"."id" IS NOT NULL) FROM "categories""#))
    let rows: [(String, [Item])] = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0) == ["Electronics", "Books", "Garden"])
    #expect(rows.map { $0.1.map(\.title).sorted() } == [["Cable", "Phone"], ["Atlas", "Novel"], []])
    let phone = rows[0].1.first { $0.title == "Phone" }
    #expect(phone?.tags == ["new", "sale"])
    #expect(phone?.priority == .high)
    #expect(phone?.createdAt == referenceDate)
    #expect(phone?.price == 699)
  }

  @Test func anObjectDecodesAsTheRow() throws {
    let query = Tag.where { $0.id.eq(2) }.select { $0.jsonObject() }
    #expect(query.queryFragment.sql.hasPrefix(#"SELECT json_object(?, "tags"."id", ?, "tags"."name") FROM"#))
    let tag = try database.read { try query.fetchOne($0) }
    #expect(tag?.name == "sale")
    #expect(tag?.id == 2)
  }

  @Test func lengthsAndPathsOfJSONColumns() throws {
    let query = Item.order(by: \.id).select { ($0.tags.jsonArrayLength(), $0.tags.jsonExtract("$[0]", as: String.self)) }
    #expect(
      query.queryFragment.sql.hasPrefix(
        #"SELECT json_array_length("items"."tags"), json_extract("items"."tags", ?) FROM"#))
    let rows = try database.read { try query.fetchAll($0) }
    #expect(rows.map(\.0) == [2, 0, 0, 0, 0])
    #expect(rows.map(\.1) == ["new", nil, nil, nil, nil])
  }
}
