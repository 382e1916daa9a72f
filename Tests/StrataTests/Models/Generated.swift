// Generated columns: computed by the database, read like any column, never written.
import Foundation
import Strata

struct LineItem: Table, Identifiable {
  let id: Int
  var name = ""
  var price = 0.0
  var quantity = 0
  /// The line's total, computed when read.
  // @Generated(raw: "price * quantity")
  var total: Double
  /// The name in capitals, stored with the row.
  // @Generated(raw: "upper(name)", stored: true)
  var shout: String
}
