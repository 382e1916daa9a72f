// @Table(" games")
struct Game: Table { let id: Int }
// expect: error 1:11 table name " games" starts or ends with a space, which reads as a diff
