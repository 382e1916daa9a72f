struct Item: Table {
  let id: Int
  var big: Int64 = 9_223_372_036_854_775_808
}
// expect: error 3:20 the default 9_223_372_036_854_775_808 does not fit in 64 bits
