// The harness's app: folders (records, with a column of every merge rule and a unique slug)
// and their notes, synced; and, beside them, what each device wrote and what the server
// confirmed, in tables that do not sync, written in the same transactions as the writes.
import Foundation
import Strata

// @Synced
struct Folder: Table, Identifiable {
  let id: UUID
  // The harness's second schema renames `title` through the compatibility window (migration
  // 0002 keeps both; 0003 drops `title`), while devices of the first schema sync.
  // @Renamed(from: "title")
  var name = ""
  var color: String?
  // @Unique
  var slug: String?
  // @Merge(.max)
  var rank = 0
  // @Merge(.counter)
  var visits = 0
  // @Merge(.union)
  var labels = "[]"
  // @Merge(with: "mergeSummary")
  var summary = ""

  /// Concurrent summaries, each once, in the order of their stamps.
  static func mergeSummary(_ values: [String]) -> String {
    var seen: Set<String> = []
    return values.filter { seen.insert($0).inserted }.joined(separator: " + ")
  }
}

// @Synced
struct Note: Table, Identifiable {
  let id: UUID
  // @References(Folder.self, onDelete: .cascade)
  let folderID: Folder.ID
  var text = ""
  var position = 0
}

/// One write a device made, recorded in the transaction that made it: what it wrote and the
/// stamp the capture triggers gave it.
struct DeviceWrite: Table, Identifiable {
  let id: Int
  /// `insert`, `update`, `add` (a counter's increment) or `delete`.
  var operation = ""
  var tableName = ""
  var rowKey = ""
  var columnName: String?
  /// The value written, as SQLite's `quote()` shows it; for `add`, the increment.
  var value: String?
  var clock: Int = 0
  var replica = ""
}

/// The server confirmed every write recorded up to `lastWrite`.
struct DeviceAck: Table, Identifiable {
  let id: Int
  var lastWrite = 0
}
