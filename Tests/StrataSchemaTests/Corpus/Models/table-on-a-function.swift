struct Item: Table {
  let id: Int
  // @Table("items")
  func describe() -> String { "" }
}
// expect: error 3:6 @Table above a function does nothing: annotations apply to types and s
