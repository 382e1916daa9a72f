struct Note: Table {
  let id: Int
  // @Column("a\0b")
  var body = ""
}
// expect: error 3:14 column name "a\0b" contains U+0000, a control or invisible character;
