import Strata
import StrataSync
import Testing

/// Which app versions a sync server syncs with: the older of the two within the newer one's
/// compatibility window.
@Suite struct SyncSchemaTests {
  @Test func theOlderSideMustBeWithinTheNewerOnesWindow() {
    let server = SyncSchema(number: 7, keepsWorkingFrom: 5)
    #expect(server.verdict(for: SyncSchema(number: 7)) == .compatible)
    #expect(server.verdict(for: SyncSchema(number: 5)) == .compatible)
    #expect(server.verdict(for: SyncSchema(number: 4)) == .otherTooOld)
    // A newer app syncs when its own window reaches back to the server's schema.
    #expect(server.verdict(for: SyncSchema(number: 9, keepsWorkingFrom: 7)) == .compatible)
    #expect(server.verdict(for: SyncSchema(number: 9, keepsWorkingFrom: 8)) == .otherTooNew)
    // Without a window, only the same schema.
    let strict = SyncSchema(number: 3)
    #expect(strict.verdict(for: SyncSchema(number: 2)) == .otherTooOld)
    #expect(strict.verdict(for: SyncSchema(number: 4)) == .otherTooNew)
  }

  @Test func theHeaderCarriesTheNumberAndTheWindow() {
    #expect(SyncSchema(number: 7, keepsWorkingFrom: 5).headerValue == "7; from=5")
    #expect(SyncSchema(number: 7).headerValue == "7")
    #expect(SyncSchema(headerValue: "7; from=5") == SyncSchema(number: 7, keepsWorkingFrom: 5))
    #expect(SyncSchema(headerValue: "7") == SyncSchema(number: 7))
    #expect(SyncSchema(headerValue: "seven") == nil)
    #expect(SyncSchema(headerValue: "7; from=x") == nil)
    #expect(SyncSchema(migrations: [Migration(name: "0003_add_notes", compatibleFrom: 2, sql: "")]) == SyncSchema(number: 3, keepsWorkingFrom: 2))
  }
}
