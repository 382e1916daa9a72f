enum Status: String { case active, archived }
struct Item: Table {
  let id: Int
  var status: Status = .deleted
}
// expect: error 4:24 'Status' has no case 'deleted' (its cases: active, archived)
