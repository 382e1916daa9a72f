// @Table("audit\nUPDATE accounts SET balance = 1000000; --")
struct Audit: Table { let id: Int }
// expect: error 1:11 table name "audit\nUPDATE accounts SET balance = 1000000; --" contains
