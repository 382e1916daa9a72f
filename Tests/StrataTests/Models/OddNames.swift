// A table whose SQL names contain quotes and spaces, to check identifier escaping.
import Foundation
import Strata

struct OddName: Table, Identifiable {
  let id: Int
  var value = ""
}

// MARK: - Generated

nonisolated extension OddName: Strata.PrimaryKeyedTable {
  static let tableName = #"odd "names" table"#

  struct TableColumns: Strata.PrimaryKeyedColumnSet {
    typealias QueryValue = OddName
    static let columnNames = [#"the "id""#, "it's value"]
    let id = TableColumn<OddName, Int>(#"the "id""#)
    let value = TableColumn<OddName, String>("it's value")
    var primaryKey: TableColumn<OddName, Int> { id }
  }

  static let columns = TableColumns()

  var primaryKey: Int { id }

  init(decoder: inout some QueryDecoder) throws {
    id = try decoder.decode(Int.self)
    value = try decoder.decode(String.self)
  }

  func encode(into bindings: inout [QueryBinding]) {
    bindings.append(id.queryBinding)
    bindings.append(value.queryBinding)
  }
}
