// A catalog schema that uses every kind of value Strata stores, with conformances written by
// hand in the generator's shape (Documentation/GeneratedCode.md).
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

// MARK: - Generated

nonisolated extension Category: Strata.PrimaryKeyedTable {
  static let tableName = "categories"

  struct TableColumns: Strata.PrimaryKeyedColumnSet {
    typealias QueryValue = Category
    static let columnNames = ["id", "name"]
    let id = Strata.TableColumn<Category, Int>("id")
    let name = Strata.TableColumn<Category, String>("name")
    var primaryKey: Strata.TableColumn<Category, Int> { id }
  }

  static let columns = TableColumns()

  var primaryKey: Int { id }

  init(decoder: inout some Strata.QueryDecoder) throws {
    id = try decoder.decode(Int.self)
    name = try decoder.decode(String.self)
  }

  func encode(into bindings: inout [Strata.QueryBinding]) {
    bindings.append(id.queryBinding)
    bindings.append(name.queryBinding)
  }

  struct Draft: Strata.TableDraft {
    typealias Base = Category
    var id: Int?
    var name = ""

    init(id: Int? = nil, name: String = "") {
      self.id = id
      self.name = name
    }

    init(decoder: inout some Strata.QueryDecoder) throws {
      id = try decoder.decode(Int?.self)
      name = try decoder.decode(String.self)
    }

    func encode(into bindings: inout [Strata.QueryBinding]) {
      bindings.append(id.queryBinding)
      bindings.append(name.queryBinding)
    }
  }
}

nonisolated extension Item: Strata.PrimaryKeyedTable {
  static let tableName = "items"

  struct TableColumns: Strata.PrimaryKeyedColumnSet {
    typealias QueryValue = Item
    static let columnNames = [
      "id", "categoryID", "title", "notes", "price", "quantity", "isActive", "createdAt",
      "dueDate", "priority", "status", "tags", "photo", "externalID",
    ]
    let id = Strata.TableColumn<Item, Int>("id")
    let categoryID = Strata.TableColumn<Item, Category.ID?>("categoryID")
    let title = Strata.TableColumn<Item, String>("title")
    let notes = Strata.TableColumn<Item, String?>("notes")
    let price = Strata.TableColumn<Item, Double>("price")
    let quantity = Strata.TableColumn<Item, Int>("quantity")
    let isActive = Strata.TableColumn<Item, Bool>("isActive")
    let createdAt = Strata.TableColumn<Item, Date>("createdAt")
    let dueDate = Strata.TableColumn<Item, Date?>("dueDate")
    let priority = Strata.TableColumn<Item, Priority?>("priority")
    let status = Strata.TableColumn<Item, Status>("status")
    let tags = Strata.TableColumn<Item, JSONRepresentation<[String]>>("tags")
    let photo = Strata.TableColumn<Item, Data?>("photo")
    let externalID = Strata.TableColumn<Item, UUID?>("externalID")
    var primaryKey: Strata.TableColumn<Item, Int> { id }
  }

  static let columns = TableColumns()

  var primaryKey: Int { id }

  init(decoder: inout some Strata.QueryDecoder) throws {
    id = try decoder.decode(Int.self)
    categoryID = try decoder.decode(Category.ID?.self)
    title = try decoder.decode(String.self)
    notes = try decoder.decode(String?.self)
    price = try decoder.decode(Double.self)
    quantity = try decoder.decode(Int.self)
    isActive = try decoder.decode(Bool.self)
    createdAt = try decoder.decode(Date.self)
    dueDate = try decoder.decode(Date?.self)
    priority = try decoder.decode(Priority?.self)
    status = try decoder.decode(Status.self)
    tags = try decoder.decode(JSONRepresentation<[String]>.self)
    photo = try decoder.decode(Data?.self)
    externalID = try decoder.decode(UUID?.self)
  }

  func encode(into bindings: inout [Strata.QueryBinding]) {
    bindings.append(id.queryBinding)
    bindings.append(categoryID.queryBinding)
    bindings.append(title.queryBinding)
    bindings.append(notes.queryBinding)
    bindings.append(price.queryBinding)
    bindings.append(quantity.queryBinding)
    bindings.append(isActive.queryBinding)
    bindings.append(createdAt.queryBinding)
    bindings.append(dueDate.queryBinding)
    bindings.append(priority.queryBinding)
    bindings.append(status.queryBinding)
    bindings.append(JSONRepresentation(queryOutput: tags).queryBinding)
    bindings.append(photo.queryBinding)
    bindings.append(externalID.queryBinding)
  }

  struct Draft: Strata.TableDraft {
    typealias Base = Item
    var id: Int?
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
    var tags: [String] = []
    var photo: Data?
    var externalID: UUID?

    init(
      id: Int? = nil, categoryID: Category.ID? = nil, title: String = "", notes: String? = nil,
      price: Double = 0.0, quantity: Int = 0, isActive: Bool = true, createdAt: Date,
      dueDate: Date? = nil, priority: Priority? = nil, status: Status = Status.active,
      tags: [String] = [], photo: Data? = nil, externalID: UUID? = nil
    ) {
      self.id = id
      self.categoryID = categoryID
      self.title = title
      self.notes = notes
      self.price = price
      self.quantity = quantity
      self.isActive = isActive
      self.createdAt = createdAt
      self.dueDate = dueDate
      self.priority = priority
      self.status = status
      self.tags = tags
      self.photo = photo
      self.externalID = externalID
    }

    init(decoder: inout some Strata.QueryDecoder) throws {
      id = try decoder.decode(Int?.self)
      categoryID = try decoder.decode(Category.ID?.self)
      title = try decoder.decode(String.self)
      notes = try decoder.decode(String?.self)
      price = try decoder.decode(Double.self)
      quantity = try decoder.decode(Int.self)
      isActive = try decoder.decode(Bool.self)
      createdAt = try decoder.decode(Date.self)
      dueDate = try decoder.decode(Date?.self)
      priority = try decoder.decode(Priority?.self)
      status = try decoder.decode(Status.self)
      tags = try decoder.decode(JSONRepresentation<[String]>.self)
      photo = try decoder.decode(Data?.self)
      externalID = try decoder.decode(UUID?.self)
    }

    func encode(into bindings: inout [Strata.QueryBinding]) {
      bindings.append(id.queryBinding)
      bindings.append(categoryID.queryBinding)
      bindings.append(title.queryBinding)
      bindings.append(notes.queryBinding)
      bindings.append(price.queryBinding)
      bindings.append(quantity.queryBinding)
      bindings.append(isActive.queryBinding)
      bindings.append(createdAt.queryBinding)
      bindings.append(dueDate.queryBinding)
      bindings.append(priority.queryBinding)
      bindings.append(status.queryBinding)
      bindings.append(JSONRepresentation(queryOutput: tags).queryBinding)
      bindings.append(photo.queryBinding)
      bindings.append(externalID.queryBinding)
    }
  }
}

nonisolated extension CategoryStats {
  struct Columns: Strata.SelectionColumns {
    typealias QueryValue = CategoryStats
    let resultColumns: [Strata.ResultColumn]

    init(
      category: some Strata.QueryExpression<some Strata.QueryRepresentable<Category>>,
      itemCount: some Strata.QueryExpression<Int>,
      totalPrice: some Strata.QueryExpression<some Strata.QueryRepresentable<Double>>
    ) {
      resultColumns =
        category.resultColumns(named: "category")
        + itemCount.resultColumns(named: "itemCount")
        + totalPrice.resultColumns(named: "totalPrice")
    }
  }

  static var queryColumnCount: Int {
    Category?.queryColumnCount + Int.queryColumnCount + Double?.queryColumnCount
  }

  init(decoder: inout some Strata.QueryDecoder) throws {
    category = try decoder.decode(Category?.self)
    itemCount = try decoder.decode(Int.self)
    totalPrice = try decoder.decode(Double?.self)
  }
}
