import Foundation
import StrataCore

/// Where a replica's database stands in the app's migration history, as sync compares two:
/// the number of the newest migration it ran, and the oldest migration whose schema that one
/// keeps working (its compatibility window, `"compatibleWith"` in `strata.json`).
///
/// A sync client sends its own with every request (``SyncProtocol/schemaHeader``); a server
/// that knows its own refuses a client that cannot sync with it, saying which side must be
/// updated, and nothing the device wrote is lost: it stays on the device, and syncs once the
/// two can.
public struct SyncSchema: Hashable, Sendable {
  /// The number of the newest migration (its file name's leading digits).
  public var number: Int
  /// The oldest migration number whose schema keeps working beside this one; `number` when the
  /// migration promises older versions nothing.
  public var keepsWorkingFrom: Int

  public init(number: Int, keepsWorkingFrom: Int? = nil) {
    self.number = number
    self.keepsWorkingFrom = min(keepsWorkingFrom ?? number, number)
  }

  /// The schema an app's migrations make: the newest one's number and window.
  public init?(migrations: [Migration]) {
    guard let last = migrations.last, let number = Self.number(of: last.name) else { return nil }
    self.init(number: number, keepsWorkingFrom: last.compatibleFrom)
  }

  /// The number a migration's name starts with.
  public static func number(of migration: String) -> Int? {
    Int(migration.prefix { $0.isASCII && $0.isNumber })
  }

  /// How a replica on `other` can sync with one on this schema.
  public enum Verdict: Hashable, Sendable {
    /// Each keeps the other's schema working (the same one, or within the newer one's window).
    case compatible
    /// `other` is older than this schema keeps working: the app on it must be updated.
    case otherTooOld
    /// `other` is newer, and does not keep this schema working: this side must be updated.
    case otherTooNew
  }

  /// Whether a replica on `other` can sync with one on this schema: the older of the two must
  /// be within the newer one's window, whose expand step kept its columns.
  public func verdict(for other: SyncSchema) -> Verdict {
    if other.number < keepsWorkingFrom { return .otherTooOld }
    if other.number > number, other.keepsWorkingFrom > number { return .otherTooNew }
    return .compatible
  }

  /// The header's text: `7` or `7; from=5`.
  public var headerValue: String {
    keepsWorkingFrom == number ? "\(number)" : "\(number); from=\(keepsWorkingFrom)"
  }

  /// Reads a header's text; nil when it is not one.
  public init?(headerValue: String) {
    let parts = headerValue.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let first = parts.first, let number = Int(first) else { return nil }
    var from: Int?
    for part in parts.dropFirst() where part.hasPrefix("from=") {
      guard let value = Int(part.dropFirst("from=".count)) else { return nil }
      from = value
    }
    self.init(number: number, keepsWorkingFrom: from)
  }
}
