struct Team: Table { let id: UUID }
struct Member: Table {
  let id: Int
  // @Column(as: UUID.BytesRepresentation.self)
  var teamID: Team.ID
}
// expect: error 5:7 'teamID' is stored as BLOB through its representation, but the key of
