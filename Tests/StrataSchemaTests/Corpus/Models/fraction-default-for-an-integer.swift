struct Item: Table {
  let id: Int
  var count: Int = 1.5
}
// expect: error 3:20 the default 1.5 is not a value of 'count', which is Int
