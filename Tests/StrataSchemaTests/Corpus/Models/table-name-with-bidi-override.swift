// @Table("users\u{202E}sresu")
struct User: Table { let id: Int }
// expect: error 1:11 table name "users\u{202E}sresu" contains U+202E, a control or invisibl
