struct Item: Table {
  let id: Int
  // @Column("cached")
  // @Ephemeral
  var cache = 0
}
// expect: error 3:6 @Ephemeral and @Column on one property: an @Ephemeral property is not
