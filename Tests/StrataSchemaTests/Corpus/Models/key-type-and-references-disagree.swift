struct Team: Table { let id: Int }
struct Club: Table { let id: Int }
struct Member: Table {
  let id: Int
  // @References(Club.self)
  var teamID: Team.ID?
}
// expect: error 5:18 'teamID' has the type of one table's key but @References names 'Club';
