struct Team: Table { let id: UUID }
struct Member: Table {
  let id: Int
  // @References(Team.self)
  var teamRef: Int?
}
// expect: error 5:7 'teamRef' is stored as INTEGER but references "teams"."id", which is T
