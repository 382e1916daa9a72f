// A catalog that uses every convention and annotation the generator supports.
import Foundation
import Strata

public enum Priority: Int {
  case low = 1, medium, high
}

enum Status: String, Strata.QueryBindable {
  case active, archived
}

// @Table("catalog_categories")
public struct Category: Table, Identifiable {
  public let id: Int
  // @Column(collate: .nocase)
  // @Unique
  public var name = ""
}

public struct Item: Table, Identifiable {
  public let id: UUID
  public var categoryID: Category.ID?
  public var title = "Untitled"
  public var notes: String?
  public var price = 0.0
  public var quantity = 0
  public var isActive = true
  public var createdAt = Date()
  public var priority: Priority = .medium
  var status = Status.active
  // @Column(as: JSONRepresentation<[String]>.self)
  public var tags: [String] = []
  // @Column(as: Date.UnixTimeRepresentation.self)
  public var updatedAt: Date?
  // @Column("external_id")
  // @Index
  public var externalID: String?
  public var `default` = false
  // @Ephemeral
  public var isSelected = false
  public var label: String { title.uppercased() }

  /// Items per category, with the category as an optional whole-table field.
  public struct Stats: Selection {
    public let category: Category?
    public let itemCount: Int
    public let totalPrice: Double?
    // @Column(as: JSONRepresentation<[String]>.self)
    public let allTags: [String]?
  }
}

struct ItemTag: Table {
  let itemID: Item.ID
  let tag: String
}
