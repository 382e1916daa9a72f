struct Item: Table {
  let id: Int
  // @References(onDelete: .cascade)
  var ownerID: Int?
}
// expect: error 3:6 @References needs the referenced table: @References(Other.self)
// expect: error 3:18 onDelete needs a reference: @References(Other.self, onDelete: …)
