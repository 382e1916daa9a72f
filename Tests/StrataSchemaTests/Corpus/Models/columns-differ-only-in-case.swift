struct Game: Table {
  let id: Int
  var name = ""
  // @Column("Name")
  var otherName = ""
}
// expect: error 5:7 two properties of 'Game' map to the column "Name" (also at line 3; SQL
