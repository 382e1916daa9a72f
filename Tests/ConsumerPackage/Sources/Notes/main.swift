// Three replicas of the notes, in files: concurrent edits, changesets carried in their binary
// form in both directions, and the same rows everywhere after.
import Foundation
import Strata
import StrataSync

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-notes-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let replicas = try (0..<3).map { index in
  let database = try openDatabase(.file(folder.appendingPathComponent("\(index).sqlite").path))
  try database.migrate(StrataMigrations.all)
  return (database, try SyncReplica(database, tables: StrataSyncedTables.all))
}

func exchange() throws {
  for (_, from) in replicas {
    for (_, to) in replicas where to !== from {
      try to.apply(try Changeset(decoding: try from.changes().encoded()))
    }
  }
}

let notebook = UUID()
let note = UUID()
try replicas[0].0.write { db in
  try Notebook.insert { Notebook.Draft(id: notebook, name: "Ideas") }.execute(db)
  try Note.insert { Note.Draft(id: note, notebookID: notebook, text: "sync") }.execute(db)
}
try exchange()
try replicas[1].0.write { db in try Note.find(note).update { $0.text = "sync, tested"; $0.likes += 1 }.execute(db) }
try replicas[2].0.write { db in try Note.find(note).update { $0.text = "sync!"; $0.likes += 2 }.execute(db) }
try exchange()

let rows = try replicas.map { database, _ in try database.read { db in try Note.all.fetchAll(db) } }
guard rows.allSatisfy({ $0 == rows[0] }), let merged = rows[0].first, merged.text == "sync, tested", merged.likes == 3 else {
  print("FAILED: \(rows)")
  exit(1)
}
let conflicts = try replicas[0].1.conflicts()
print("OK: 3 replicas hold \"\(merged.text)\" with \(merged.likes) likes; \(conflicts.count) concurrent edit listed")
