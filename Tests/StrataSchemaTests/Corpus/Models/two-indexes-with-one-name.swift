struct Y: Table { let id: Int }
// @Table("x_on_y")
struct A: Table {
  let id: Int
  // @Index
  var z = 0
}
// @Table("x")
struct B: Table {
  let id: Int
  // @Index
  var y_on_z = 0
}
// expect: error 12:7 the index Strata creates for "x"."y_on_z" is named "index_x_on_y_on_z"
