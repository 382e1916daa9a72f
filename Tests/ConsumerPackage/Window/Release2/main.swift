// Release 2 of the app: `Member.name` is renamed `displayName` under a compatibility window
// (Migrations/strata.json), so release 1 keeps working on the database it migrates.
//
//   Release2 PATH write         migrate, read release 1's rows, insert and update
//   Release2 PATH write2        insert a member while release 1 follows a live query
//   Release2 PATH watch NAME    follow a live query until a member called NAME shows
//   Release2 PATH read          migrate (the contract step, once written) and read every row
import Foundation
import Strata

struct Member: Table, Identifiable {
  let id: Int
  // @Renamed(from: "name")
  var displayName: String
  var rank = 0
}

func check(_ condition: Bool, _ message: String) {
  if !condition {
    print("FAILED: \(message)")
    exit(1)
  }
}

let arguments = CommandLine.arguments
let path = arguments[1]
let database = try openDatabase(.file(path))
let result = try database.migrate(StrataMigrations.all)
print("release 2 migrated: \(result.applied.joined(separator: ", "))")

switch arguments[2] {
case "write":
  try database.write { db in
    try Member.insert { Member.Draft(displayName: "Cyd", rank: 3) }.execute(db)
    try Member.where { $0.displayName.eq("Ann") }.update { $0.displayName = "Annie" }.execute(db)
  }
case "write2":
  try database.write { db in try Member.insert { Member.Draft(displayName: "New", rank: 6) }.execute(db) }
case "watch":
  let members = FetchAll(Member.order(by: \.id), database: database)
  try Data().write(to: URL(fileURLWithPath: path + ".release2-watching"))
  let deadline = Date().addingTimeInterval(120)
  while !members.wrappedValue.contains(where: { $0.displayName == arguments[3] }), Date() < deadline {
    try await Task.sleep(for: .milliseconds(20))
  }
  check(members.wrappedValue.contains { $0.displayName == arguments[3] }, "release 2's live query never saw \(arguments[3]): \(members.wrappedValue)")
case "read":
  break
default:
  check(false, "unknown action \(arguments[2])")
}
let members = try database.read { db in try Member.order(by: \.id).fetchAll(db) }
print("release 2 reads: " + members.map { "\($0.id) \($0.displayName) \($0.rank)" }.joined(separator: ", "))
