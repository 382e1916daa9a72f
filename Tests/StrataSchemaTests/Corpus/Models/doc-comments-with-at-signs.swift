// expect: accepted
/// A thing to sell.
/// @see the pricing design doc
/// @Table is not what names this table; the line below is.
// @Table("stock")
struct Item: Table {
  let id: Int
  /// @param price in cents
  /// @Index keeps this sorted for the catalog page.
  // @todo round to whole cents
  // @Unique
  var price = 0
  /// @Index
  var name = ""
}
/* expect-schema
CREATE TABLE "stock" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "price" INTEGER NOT NULL UNIQUE DEFAULT 0,
  "name" TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX "index_stock_on_name" ON "stock"("name");
*/
