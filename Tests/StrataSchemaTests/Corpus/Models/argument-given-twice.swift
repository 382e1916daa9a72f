struct Item: Table {
  let id: Int
  // @Column("a")
  // @Column("b")
  var price = 0
}
// expect: error 4:14 @Column is given twice (also at line 3); keep one
