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

public struct CategoryStats: Selection {
  public let category: Category
  public let itemCount: Int
  public let topPriority: Priority?
}
