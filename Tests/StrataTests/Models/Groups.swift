// Column groups: Selections of columns used as properties of a table, stored as their columns.
import Foundation
import Strata

struct Timestamps: Selection {
  var createdAt: Date
  var updatedAt: Date?
}

struct Archive: Selection {
  var archivedAt: Date
  var reason: String
}

struct Memo: Table, Identifiable {
  let id: Int
  var body = ""
  var timestamps: Timestamps
  var archive: Archive?
}

/// A memo's body with its group, for passing a group into a Selection's columns.
struct MemoRow: Selection {
  let body: String
  let timestamps: Timestamps
}
