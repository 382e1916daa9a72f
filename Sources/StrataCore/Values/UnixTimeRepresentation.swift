import Foundation

extension Date {
  /// Stores a date as INTEGER seconds since 1970-01-01 UTC, the form of SQLite's `unixepoch()`.
  ///
  /// Fractions of a second are truncated toward negative infinity when stored.
  public struct UnixTimeRepresentation: QueryBindable, Hashable, Sendable {
    public var queryOutput: Date

    public init(queryOutput: Date) {
      self.queryOutput = queryOutput
    }

    public var queryBinding: QueryBinding {
      let seconds = queryOutput.timeIntervalSince1970.rounded(.down)
      guard seconds.isFinite, let value = Int64(exactly: seconds) else {
        return .integer(seconds < 0 ? Int64.min : Int64.max)
      }
      return .integer(value)
    }

    public init(decoder: inout some QueryDecoder) throws {
      queryOutput = try decoder.decode(Date.self) { column in
        guard case .integer(let seconds) = column else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
      }
    }
  }
}
