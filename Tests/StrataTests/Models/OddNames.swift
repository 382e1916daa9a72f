// A table whose SQL names contain quotes and spaces, to check identifier escaping.
import Foundation
import Strata

// @Table("odd \"names\" table")
struct OddName: Table, Identifiable {
  // @Column("the \"id\"")
  // @Column(primaryKey: true)
  let id: Int
  // @Column("it's value")
  var value = ""
}
