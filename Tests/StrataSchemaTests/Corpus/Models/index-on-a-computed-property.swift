struct Item: Table {
  let id: Int
  var price = 0
  // @Index
  var doubled: Int { price * 2 }
}
// expect: error 4:6 @Index on computed property 'doubled' does nothing: only stored instan
