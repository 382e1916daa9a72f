// A catalog schema that uses every kind of value Strata stores; the plugin generates the
// conformances.
import Foundation
import Strata

enum Priority: Int, QueryBindable {
  case low = 1, medium, high
}

enum Status: String, QueryBindable {
  case active, archived
}

struct Category: Table, Identifiable {
  let id: Int
  var name = ""
}

struct Item: Table, Identifiable {
  let id: Int
  var categoryID: Category.ID?
  var title = ""
  var notes: String?
  var price = 0.0
  var quantity = 0
  var isActive = true
  var createdAt: Date
  var dueDate: Date?
  var priority: Priority?
  var status = Status.active
  // @Column(as: JSONRepresentation<[String]>.self)
  var tags: [String] = []
  var photo: Data?
  var externalID: UUID?
}

/// Per-category statistics, with the category as an optional whole-table field.
struct CategoryStats: Selection {
  let category: Category?
  let itemCount: Int
  let totalPrice: Double?
}

/// A title and price: nested in ``ItemListing``.
struct PriceTag: Selection {
  let title: String
  let price: Double
}

/// A selection with nested selections, one of them optional.
struct ItemListing: Selection {
  let category: String?
  let tag: PriceTag
  let discounted: PriceTag?
}

/// A category with its items, aggregated as JSON and decoded through the items' own decoding.
struct CategoryWithItems: Selection {
  let name: String
  // @Column(as: JSONArray<Item>.self)
  let items: [Item]
}
