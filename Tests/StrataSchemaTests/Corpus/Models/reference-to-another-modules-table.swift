import Catalog

struct Order: Table {
  let id: Int
  var categoryID: Catalog.Category.ID
  var itemID: Item.ID?
}
// expect: error 5:7 'categoryID: Catalog.Category.ID': no model 'Catalog.Category' is declared in this target; declare it here as a Table model, or, if it is another module's table
// expect: error 6:7 'itemID: Item.ID': no model 'Item' is declared in this target
