import StrataSchema
import Testing
import StrataTestSupport

/// `// @Synced` and `// @Merge`: what sync refuses, at the model's line.
@Suite(.blockingWork) struct SyncModelTests {
  func errors(_ source: String, dialect: DatabaseDialect = .sqlite) -> [String] {
    do {
      _ = try Generator(sources: [("Models.swift", source)]).models(for: dialect)
      return []
    } catch let error as DiagnosticsError {
      return error.diagnostics.map { "\($0.location.line): \($0.message)" }
    } catch {
      return ["\(error)"]
    }
  }

  @Test func aSyncedTableNeedsAUUIDKey() {
    #expect(errors("""
      // @Synced
      struct Score: Table {
        let id: Int
        var points = 0
      }
      """) == [
        "3: 'Score' syncs, so its key must be one UUID column (`let id: UUID`): replicas create rows without asking each other, and two of them would pick the same integer"
      ])
  }

  @Test func mergeRulesAreCheckedWhereTheyAreWritten() {
    #expect(errors("""
      import Foundation
      // @Synced
      struct Note: Table {
        let id: UUID
        // @Merge(.sum)
        var body = ""
      }
      """).first?.hasPrefix("5: @Merge takes .latest, .max, .min, .union or .counter, or a function") == true)
    let found = errors("""
      import Foundation
      struct Local: Table {
        let id: UUID
        // @Merge(.max)
        var points = 0
      }
      // @Synced
      struct Note: Table {
        let id: UUID
        // @Merge(.counter)
        var title = ""
      }
      """)
    #expect(found == [
      "4: @Merge on 'Local.points' does nothing: 'Local' does not sync; add // @Synced above it",
      "10: @Merge(.counter) counts in integers: 'title' must be a non-optional integer (Int, Int64, …)",
    ])
  }

  @Test func aTableThatReferencesASyncedOneMustSync() {
    #expect(errors("""
      import Foundation
      // @Synced
      struct List: Table {
        let id: UUID
      }
      struct Item: Table {
        let id: UUID
        let listID: List.ID
      }
      """) == [
        #"8: 'Item' references the synced table "lists", so it must sync too: add // @Synced above it (with a UUID key)"#
      ])
  }

  @Test func postgreSQLModelsSyncWithoutTriggers() throws {
    // The sync server's tables: the same list of synced tables and merge rules, and no trigger
    // (the server writes them after merging).
    let source = """
      import Foundation
      // @Synced
      struct List: Table {
        let id: UUID
        // @Merge(.max)
        var rank = 0
      }
      """
    #expect(errors(source, dialect: .postgresql) == [])
    let models = try Generator(sources: [("Models.swift", source)]).models(for: .postgresql)
    #expect(!DatabaseDialect.postgresql.sql(models.schema).contains("TRIGGER"))
    let generator = Generator(sources: [("Models.swift", source)])
    let swift = generator.conformances(of: try generator.models(for: .postgresql))
    #expect(swift.contains(#"StrataCore.SyncedColumn("rank", merge: .max),"#))
  }
}
