// @Table("items")
// @Table("things")
struct Item: Table { let id: Int }
// expect: error 2:11 @Table is given twice (also at line 1); keep one
