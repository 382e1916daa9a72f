// @Table("settings")
struct Settings {
  var theme = ""
}
// expect: error 1:4 @Table on 'Settings', which does not conform to Table, does nothing
