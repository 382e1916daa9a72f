struct Item: Table {
  let id: Int
  var price = 0 // @Index
}
// expect: error 3:20 @Index is not directly above a declaration, so it applies to nothing;
