import Foundation
import Strata

/// A fresh database with every table of this target's models, made by its generated migrations
/// (`Migrations/`), as an app's first launch makes them.
func testDatabase(
  _ location: DatabaseLocation = .inMemory, pooled: Bool = false, configuration: Configuration = Configuration()
) throws -> any DatabaseWriter {
  let database = try openDatabase(location, pooled: pooled, configuration: configuration)
  try database.migrate(StrataMigrations.all)
  return database
}

/// A fresh in-memory database for the catalog models, not seeded.
func catalogDatabase() throws -> any DatabaseWriter {
  try testDatabase()
}

/// A fixed point in time: 2025-01-02 03:04:05.678 UTC.
let referenceDate = Date(timeIntervalSince1970: 1_735_787_045.678)

/// Three categories and five items:
///
/// | id | title | category | price | quantity | active | priority | notes |
/// |---|---|---|---|---|---|---|---|
/// | 1 | Phone | 1 Electronics | 699 | 3 | yes | high | "Flagship" |
/// | 2 | Cable | 1 Electronics | 9.5 | 40 | yes | low | nil |
/// | 3 | Novel | 2 Books | 15 | 7 | no | nil | "Paperback" |
/// | 4 | Atlas | 2 Books | 45 | 0 | yes | medium | nil |
/// | 5 | Mystery box | none | 20 | 1 | yes | nil | nil |
///
/// Category 3, Garden, has no items. Tags: Phone is "new" and "sale", Cable "sale", Atlas
/// "gift"; tag 4, "used", is on no item.
func seedCatalog(_ db: Database) throws {
  try db.seed(catalogRows)
}

/// The rows of ``seedCatalog(_:)``, for a database of either dialect.
@SeedsBuilder func catalogRows() -> Seeds {
  Category.Draft(name: "Electronics")
  Category.Draft(name: "Books")
  Category.Draft(name: "Garden")
  Item.Draft(
    categoryID: 1, title: "Phone", notes: "Flagship", price: 699, quantity: 3,
    createdAt: referenceDate, priority: .high, tags: ["new", "sale"])
  Item.Draft(
    categoryID: 1, title: "Cable", price: 9.5, quantity: 40,
    createdAt: referenceDate.addingTimeInterval(60), priority: .low)
  Item.Draft(
    categoryID: 2, title: "Novel", notes: "Paperback", price: 15, quantity: 7, isActive: false,
    createdAt: referenceDate.addingTimeInterval(120), status: .archived)
  Item.Draft(
    categoryID: 2, title: "Atlas", price: 45, quantity: 0,
    createdAt: referenceDate.addingTimeInterval(180), priority: .medium)
  Item.Draft(title: "Mystery box", price: 20, quantity: 1, createdAt: referenceDate.addingTimeInterval(240))
  Tag.Draft(name: "new")
  Tag.Draft(name: "sale")
  Tag.Draft(name: "gift")
  Tag.Draft(name: "used")
  ItemTag(itemID: 1, tagID: 1)
  ItemTag(itemID: 1, tagID: 2)
  ItemTag(itemID: 2, tagID: 2)
  ItemTag(itemID: 4, tagID: 3)
}
