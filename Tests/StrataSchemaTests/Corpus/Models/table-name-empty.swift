// @Table("")
struct Game: Table { let id: Int }
// expect: error 1:11 @Table takes the table's name: @Table("name")
