struct Item: Table { let id: Int }
// @Table("things")
extension Item {
  // @Index
  var label: String { "" }
}
// expect: error 2:4 @Table in an extension does nothing: annotations go on the struct's ow
// expect: error 4:6 @Index in an extension does nothing: annotations go on the struct's ow
