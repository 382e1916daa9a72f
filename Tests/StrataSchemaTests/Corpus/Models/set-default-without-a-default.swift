struct Team: Table { let id: Int }
struct Member: Table {
  let id: Int
  // @References(Team.self, onDelete: .setDefault)
  var teamID: Int
}
// expect: error 4:29 onDelete: .setDefault sets 'teamID' to its default when the referenced
