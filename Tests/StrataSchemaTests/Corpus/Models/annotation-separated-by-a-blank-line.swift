struct Item: Table {
  let id: Int
  // @Index

  var price = 0
}
// expect: error 3:6 @Index is not directly above a declaration, so it applies to nothing;
