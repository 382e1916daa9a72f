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
