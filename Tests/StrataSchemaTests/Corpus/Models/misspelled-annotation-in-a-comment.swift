struct Item: Table {
  let id: Int
  // @unique
  var price = 0
}
// expect: error 3:6 unknown annotation @unique; did you mean @Unique?
