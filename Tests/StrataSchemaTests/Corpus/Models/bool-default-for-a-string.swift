struct Item: Table {
  let id: Int
  var name: String = false
}
// expect: error 3:22 the default false is not a value of 'name', which is String
