// @Table("SQLite_stat1")
struct Stat: Table { let id: Int }
// expect: error 1:11 table name "SQLite_stat1" starts with sqlite_, which SQLite reserves f
