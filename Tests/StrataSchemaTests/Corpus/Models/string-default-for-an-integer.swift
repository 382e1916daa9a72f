struct Item: Table {
  let id: Int
  var count: Int = "none"
}
// expect: error 3:20 the default "none" is not a value of 'count', which is Int
