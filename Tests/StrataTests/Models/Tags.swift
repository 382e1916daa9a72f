// Tags and the junction table that links them to items: a table without a primary key.
import Foundation
import Strata

struct Tag: Table, Identifiable {
  let id: Int
  var name = ""
}

struct ItemTag: Table {
  let itemID: Item.ID
  let tagID: Tag.ID
}

// MARK: - Generated

nonisolated extension Tag: Strata.PrimaryKeyedTable {
  static let tableName = "tags"

  struct TableColumns: Strata.PrimaryKeyedColumnSet {
    typealias QueryValue = Tag
    static let columnNames = ["id", "name"]
    let id = Strata.TableColumn<Tag, Int>("id")
    let name = Strata.TableColumn<Tag, String>("name")
    var primaryKey: Strata.TableColumn<Tag, Int> { id }
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
    typealias Base = Tag
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

nonisolated extension ItemTag {
  static let tableName = "itemTags"

  struct TableColumns: Strata.TableColumnSet {
    typealias QueryValue = ItemTag
    static let columnNames = ["itemID", "tagID"]
    let itemID = Strata.TableColumn<ItemTag, Item.ID>("itemID")
    let tagID = Strata.TableColumn<ItemTag, Tag.ID>("tagID")
  }

  static let columns = TableColumns()

  init(decoder: inout some Strata.QueryDecoder) throws {
    itemID = try decoder.decode(Item.ID.self)
    tagID = try decoder.decode(Tag.ID.self)
  }

  func encode(into bindings: inout [Strata.QueryBinding]) {
    bindings.append(itemID.queryBinding)
    bindings.append(tagID.queryBinding)
  }
}
