#if SyncServer
import HTTPTypes

/// A request the server turns down, with the HTTP status and the reason the client gets as the
/// response's text. Nothing of the request was written.
public struct SyncRefusal: Error, CustomStringConvertible, Sendable {
  /// 400 (malformed), 401 (no user), 403 (not allowed), 413 (too large), 422 (not storable),
  /// 426 (the app is older than the server syncs with), 409 (the server is older than the app).
  public let status: HTTPResponse.Status
  /// What was wrong, in the model's words.
  public let reason: String
  /// The row whose change was refused, when the refusal is about what the user may do with
  /// it: the client discards its unconfirmed changes to the row and fetches the record the
  /// server holds it in again.
  public let row: RowID?

  init(_ status: HTTPResponse.Status, _ reason: String, row: RowID? = nil) {
    self.status = status
    self.reason = reason
    self.row = row
  }

  public var description: String { "\(status.code) \(reason)" }
}
#endif
