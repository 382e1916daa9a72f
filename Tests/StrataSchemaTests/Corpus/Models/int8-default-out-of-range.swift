struct Item: Table {
  let id: Int
  var small: Int8 = 1000
}
// expect: error 3:21 the default 1000 does not fit in Int8 (-128...127)
