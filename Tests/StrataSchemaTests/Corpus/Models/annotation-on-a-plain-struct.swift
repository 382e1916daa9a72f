struct Settings {
  // @Index
  var theme = ""
}
struct Item: Table { let id: Int }
// expect: error 2:6 @Index on 'theme' does nothing: 'Settings' does not conform to Table
