struct Team: Table { let id: Int }
struct Member: Table {
  let id: Int
  // @References(Team.self, onDelete: .setNull)
  let teamID: Int
}
// expect: error 4:29 'teamID' is not optional, so deleting the referenced row cannot set it
