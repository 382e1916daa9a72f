struct Item: Table {
  let id: Int
  var name = "open
}
// expect: error 3:14 unterminated string literal
