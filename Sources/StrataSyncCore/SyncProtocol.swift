/// What a sync client and a sync server say to each other over HTTP, in one place for both.
///
/// | Request | Body | Answer |
/// |---|---|---|
/// | `POST /sync/push` | an encoded ``Changeset`` | ``SyncPushReceipt`` (JSON) |
/// | `GET /sync/pull?after=N&wait=S` | | an encoded ``Changeset``; its cursor is the next `after`; headers ``revokedHeader`` and ``waitingHeader`` |
/// | `GET /sync/live?after=N` (WebSocket) | | a binary message, an encoded ``Changeset``, per commit |
/// | `GET /sync/record?table=T&key=K` | | an encoded ``Changeset``: the rows of the record the row belongs to (none when the user may not read it); header ``waitingHeader`` |
/// | `GET /sync/shares` | | ``SyncShareList`` (JSON) |
/// | `POST /sync/shares` | ``SyncShareRequest`` (JSON) | the owner shares a record |
/// | `POST /sync/shares/accept` | ``SyncShareRequest`` | the user accepts a share |
/// | `DELETE /sync/shares` | ``SyncShareRequest`` | the owner revokes, or the user leaves |
///
/// Every request carries `Authorization: Bearer <token>`, which the server's authentication
/// hook turns into a user. A refusal is a 4xx status with the reason as plain text.
public enum SyncProtocol {
  /// The content type of an encoded changeset.
  public static let changesetContentType = "application/x-strata-changeset"
  /// The pull answer's header listing records the user may no longer read, as
  /// `table/key` separated by commas.
  public static let revokedHeader = "Strata-Revoked"
  /// The pull answer's header listing the rows of its changeset that the server keeps out of
  /// its tables (a unique value another row holds, a parent that is not there), as
  /// `table/key` separated by commas: the device keeps them out too until a pull sends them
  /// without it.
  public static let waitingHeader = "Strata-Waiting"
  /// Every request's header giving the client's ``SyncSchema`` (`7`, or `7; from=5` under a
  /// compatibility window). A server that knows its own answers `426 Upgrade Required` to a
  /// client older than its window ("update the app"), and `409 Conflict` to one
  /// whose window does not reach back to the server's schema (the server must be updated).
  public static let schemaHeader = "Strata-Schema"
  /// A refused push's header naming the row (`table/key`) the user may not write as they tried:
  /// the client discards its unconfirmed changes to it and fetches its record again.
  public static let refusedRowHeader = "Strata-Refused-Row"
}

/// The server's answer to a push it merged.
public struct SyncPushReceipt: Codable, Hashable, Sendable {
  /// How many rows the push changed on the server (0 for a changeset it had merged before).
  public var changed: Int
  /// The number the server gave the push.
  public var number: Int64

  public init(changed: Int, number: Int64) {
    self.changed = changed
    self.number = number
  }
}

/// A record (a root row: its table and key) and, for sharing, a user and their access.
public struct SyncShareRequest: Codable, Hashable, Sendable {
  /// The root row's table.
  public var table: String
  /// The root row's key, as SQLite stores it (a UUID's text).
  public var key: String
  /// The user to share with or revoke; the caller when absent (accepting, leaving).
  public var user: String?
  /// `read` or `write`, for sharing.
  public var access: SyncShareAccess?

  public init(table: String, key: String, user: String? = nil, access: SyncShareAccess? = nil) {
    self.table = table
    self.key = key
    self.user = user
    self.access = access
  }
}

/// What a user may do with a record shared with them.
public enum SyncShareAccess: String, Codable, Hashable, Sendable {
  /// See the record's rows.
  case read
  /// See and change them, and add rows to the record.
  case write
}

/// One share: a record, the user it is shared with, the access, and whether they accepted.
public struct SyncShare: Codable, Hashable, Sendable {
  public var table: String
  public var key: String
  /// The owner of the record.
  public var owner: String
  /// The user it is shared with.
  public var user: String
  public var access: SyncShareAccess
  public var accepted: Bool

  public init(table: String, key: String, owner: String, user: String, access: SyncShareAccess, accepted: Bool) {
    self.table = table
    self.key = key
    self.owner = owner
    self.user = user
    self.access = access
    self.accepted = accepted
  }
}

/// The shares a user sees: those of the records they own, and those offered to them.
public struct SyncShareList: Codable, Hashable, Sendable {
  /// Shares of the user's own records.
  public var given: [SyncShare]
  /// Records others shared with the user, accepted or not yet.
  public var received: [SyncShare]

  public init(given: [SyncShare], received: [SyncShare]) {
    self.given = given
    self.received = received
  }
}
