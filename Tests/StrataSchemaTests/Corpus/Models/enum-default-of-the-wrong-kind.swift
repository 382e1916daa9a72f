enum Status: String { case active, archived }
struct Item: Table {
  let id: Int
  var status: Status = "active"
}
// expect: error 4:24 the default "active" is not a case of 'Status', the type of 'status'
