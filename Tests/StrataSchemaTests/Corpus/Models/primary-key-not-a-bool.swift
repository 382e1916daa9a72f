struct Item: Table {
  // @Column(primaryKey: 1)
  let code: String
}
// expect: error 2:14 @Column(primaryKey:) takes true or false
