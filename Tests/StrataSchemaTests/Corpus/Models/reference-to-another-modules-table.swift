import Catalog

struct Order: Table {
  let id: Int
  var categoryID: Catalog.Category.ID
  var itemID: Item.ID?
}
// expect: error 5:7 'categoryID: Catalog.Category.ID' references 'Catalog.Category', which is not a model of this target
// expect: error 6:7 'itemID: Item.ID' references 'Item', which is not a model of this target
