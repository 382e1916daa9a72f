import Foundation
import Strata

public enum Priority: Int {
  case low = 1, medium, high
}

// @Table("catalog_categories")
public struct Category: Table, Identifiable {
  public let id: Int
  // @Column(collate: .nocase)
  public var name = ""

  /// A struct's memberwise initializer is internal; declared here, in the body, this one
  /// replaces it, so other modules can make categories.
  public init(id: Int, name: String = "") {
    self.id = id
    self.name = name
  }
}

public struct Item: Table, Identifiable {
  public let id: UUID
  public var categoryID: Category.ID?
  public var title = ""
  public var priority: Priority = .medium
  // @Column(as: JSONRepresentation<[String]>.self)
  public var tags: [String] = []
  public var createdAt = Date()
  var internalNote: String?
}

/// Labels on items: a table without a primary key, inserted from other modules with its Draft.
public struct ItemLabel: Table {
  public let itemID: Item.ID
  public var label = ""
}

public struct CategoryStats: Selection {
  public let category: Category
  public let itemCount: Int
  public let topPriority: Priority?
}
