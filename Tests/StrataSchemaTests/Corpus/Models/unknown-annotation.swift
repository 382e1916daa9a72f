struct Item: Table {
  let id: Int
  // @Indexed
  var price = 0
}
// expect: error 3:6 unknown annotation @Indexed
