#if PostgreSQL
import Foundation

/// A result one task hands another once: the first `fulfill` wins.
///
/// A connection is leased in a child task (postgres-nio lends it for the time of a closure) and
/// used by the task that asked for it, which can then stop waiting after a timeout; two of
/// these carry the connection there and the word that it is free back.
final class Handoff<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<Value, any Error>?
  private var waiter: CheckedContinuation<Value, any Error>?

  /// Sets the result, unless one is set already; returns whether this call set it.
  @discardableResult
  func fulfill(_ result: Result<Value, any Error>) -> Bool {
    let (won, waiter): (Bool, CheckedContinuation<Value, any Error>?) = lock.withLock {
      guard self.result == nil else { return (false, nil) }
      self.result = result
      defer { self.waiter = nil }
      return (true, self.waiter)
    }
    waiter?.resume(with: result)
    return won
  }

  /// Waits for the result. A cancellable wait ends with `CancellationError` when the task is
  /// cancelled first; one that is not ends only when the result is set.
  func value(cancellable: Bool) async throws -> Value {
    guard cancellable else { return try await wait() }
    return try await withTaskCancellationHandler {
      try await wait()
    } onCancel: {
      fulfill(.failure(CancellationError()))
    }
  }

  private func wait() async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      let ready: Result<Value, any Error>? = lock.withLock {
        if let result { return result }
        waiter = continuation
        return nil
      }
      if let ready { continuation.resume(with: ready) }
    }
  }
}
#endif
