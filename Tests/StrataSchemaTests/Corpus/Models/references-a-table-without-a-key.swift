struct Log: Table { var message = "" }
struct Entry: Table {
  let id: Int
  // @References(Log.self)
  var logID: Int?
}
// expect: error 4:18 'Log' has no primary key for 'logID' to reference
