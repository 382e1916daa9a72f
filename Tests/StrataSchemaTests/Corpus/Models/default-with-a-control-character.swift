struct Item: Table {
  let id: Int
  var separator = "a\u{1}b"
}
// expect: error 3:19 the default contains U+0001, a control or invisible character, which a
