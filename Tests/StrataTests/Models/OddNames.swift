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
    let id = Strata.TableColumn<OddName, Int>(#"the "id""#)
    let value = Strata.TableColumn<OddName, String>("it's value")
    var primaryKey: Strata.TableColumn<OddName, Int> { id }
  }

  static let columns = TableColumns()

  var primaryKey: Int { id }

  init(decoder: inout some Strata.QueryDecoder) throws {
    id = try decoder.decode(Int.self)
    value = try decoder.decode(String.self)
  }

  func encode(into bindings: inout [Strata.QueryBinding]) {
    bindings.append(id.queryBinding)
    bindings.append(value.queryBinding)
  }
}
