import Foundation

/// Where a ``SyncClient`` is, for a UI to show: `syncing`, `offline`, an error that needs the
/// user (an update of the app, a share that ended), and how many changed rows wait to be sent.
public struct SyncStatus: Hashable, Sendable {
  /// What the client is doing.
  public enum Phase: Hashable, Sendable {
    /// Up to date with the server as of ``SyncStatus/lastSynced``; waiting for changes.
    case idle
    /// Pushing or pulling.
    case syncing
    /// The server cannot be reached; the client tries again, waiting longer each time.
    case offline
    /// The server refused a request, with its reason; the client tries again, waiting longer
    /// each time, since the reason may pass (a share accepted, the server updated).
    case error(String)
  }

  /// What the client is doing.
  public var phase: Phase = .idle
  /// Rows changed on this device that the server has not confirmed yet.
  public var pendingChanges = 0
  /// When the client last finished a round with the server.
  public var lastSynced: Date?
  /// Why the server last refused a change made here (a record shared read-only, a share that
  /// ended): the change was undone on this device, which holds the server's rows again.
  public var lastRefusal: String?

  public init(phase: Phase = .idle, pendingChanges: Int = 0, lastSynced: Date? = nil, lastRefusal: String? = nil) {
    self.phase = phase
    self.pendingChanges = pendingChanges
    self.lastSynced = lastSynced
    self.lastRefusal = lastRefusal
  }
}

/// A request the sync server refused (a 4xx or 5xx status), with its reason.
public struct SyncRequestError: Error, CustomStringConvertible, Sendable {
  /// The HTTP status.
  public var status: Int
  /// The server's reason.
  public var reason: String
  /// The row whose change the server refused (its table and key), when the refusal was about
  /// what the user may do with it.
  public var refusedRow: (table: String, key: String)?

  public var description: String { "the sync server answered \(status): \(reason)" }
}
