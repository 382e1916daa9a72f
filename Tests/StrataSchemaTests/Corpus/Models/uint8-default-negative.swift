struct Item: Table {
  let id: Int
  var byte: UInt8 = -1
}
// expect: error 3:21 the default -1 does not fit in UInt8 (0...255)
