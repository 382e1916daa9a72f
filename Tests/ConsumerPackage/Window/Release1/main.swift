// Release 1 of an app, still installed (or a widget built from its commit) when release 2 ships:
// its model reads "name". Run by the integration test against one database file, alternating
// with release 2, which renamed the column under a compatibility window.
//
//   Release1 PATH seed          migrate, insert two members
//   Release1 PATH write         open the database release 2 migrated, insert, update, delete
//   Release1 PATH watch NAME    follow a live query until a member called NAME shows
import Foundation
import Strata

struct Member: Table, Identifiable {
  let id: Int
  var name: String
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
print("release 1 migrated: \(result.applied.count) applied; \(result.warnings.joined(separator: "; "))")

switch arguments[2] {
case "seed":
  try database.write { db in
    try Member.insert { Member.Draft(name: "Ann", rank: 1) }.execute(db)
    try Member.insert { Member.Draft(name: "Bob", rank: 2) }.execute(db)
  }
case "write":
  check(try database.migrationState(StrataMigrations.all) == .newerCompatible(["0002_rename_members_displayName_and_rebuild_members"]), "state")
  try database.write { db in
    try Member.insert { Member.Draft(name: "Old", rank: 5) }.execute(db)
    try Member.where { $0.name.eq("Bob") }.update { $0.name = "Bobby" }.execute(db)
    try Member.where { $0.name.eq("Cyd") }.delete().execute(db)
  }
case "watch":
  let members = FetchAll(Member.order(by: \.id), database: database)
  try Data().write(to: URL(fileURLWithPath: path + ".release1-watching"))
  let deadline = Date().addingTimeInterval(120)
  while !members.wrappedValue.contains(where: { $0.name == arguments[3] }), Date() < deadline {
    try await Task.sleep(for: .milliseconds(20))
  }
  check(members.wrappedValue.contains { $0.name == arguments[3] }, "release 1's live query never saw \(arguments[3]): \(members.wrappedValue)")
default:
  check(false, "unknown action \(arguments[2])")
}
let members = try database.read { db in try Member.order(by: \.id).fetchAll(db) }
print("release 1 reads: " + members.map { "\($0.id) \($0.name) \($0.rank)" }.joined(separator: ", "))
