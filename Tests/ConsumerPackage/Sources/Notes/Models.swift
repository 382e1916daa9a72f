// An app's synced models: the plugin generates their conformances and StrataSyncedTables.all,
// and generate-migrations their capture triggers.
import Foundation
import Strata

// @Synced
struct Notebook: Table, Identifiable {
  let id: UUID
  var name = ""
}

// @Synced
struct Note: Table, Identifiable, Equatable {
  let id: UUID
  let notebookID: Notebook.ID
  // @Merge(with: "longest")
  var text = ""
  // @Merge(.counter)
  var likes = 0

  /// Of concurrent texts, the longest (the latest of equal lengths).
  static func longest(_ values: [String]) -> String {
    values.reversed().max { $0.count < $1.count } ?? ""
  }
}
