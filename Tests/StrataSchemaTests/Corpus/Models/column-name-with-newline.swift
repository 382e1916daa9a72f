struct Note: Table {
  let id: Int
  // @Column("body\n-- DROP TABLE notes")
  var body = ""
}
// expect: error 3:14 column name "body\n-- DROP TABLE notes" contains U+000A, a control or
