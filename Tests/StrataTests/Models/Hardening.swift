// Models that used to trip the generator: property names that generated code also uses or that
// need backticks, a primary key that is a foreign key, and a natural text key.
import Foundation
import Strata

struct Gadget: Table, Identifiable {
  let id: Int
  var decoder = ""
  var bindings = 0
  var `Type` = 0
  var `default` = false
  var columns = 0
  var tableName = ""
  var resultColumns = 0
  var queryColumnCount = 0
}

/// One row per gadget at most: its key is the gadget's.
struct GadgetDetail: Table {
  // @Column(primaryKey: true)
  let gadgetID: Gadget.ID
  var notes = ""
}

/// A key the database cannot make up.
struct Label: Table {
  // @Column(primaryKey: true)
  let name: String
  var color = 0
}

struct GadgetRow: Selection {
  let resultColumns: Int
  let decoder: String
}
