struct Item: Table {
  let id: Int
  var price = 0
  // @Index
}
// expect: error 4:6 @Index is not directly above a declaration, so it applies to nothing;
