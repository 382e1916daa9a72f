import Foundation
import GRDB

/// Where a live query's new values are delivered.
public struct FetchDelivery: Sendable, Hashable {
  enum Kind: Hashable {
    case mainActor
    case immediately
  }

  let kind: Kind

  /// On the main actor, for user interfaces (the default).
  public static let mainActor = FetchDelivery(kind: .mainActor)

  /// As soon as the value is fetched, on the database connection's queue, for code that is not
  /// a user interface. Reading the wrapped value is safe from any thread.
  public static let immediately = FetchDelivery(kind: .immediately)

  /// GRDB's scheduler for this delivery. Either way the first value is fetched synchronously
  /// when the observation starts, so a live query has it before its initializer returns.
  var scheduler: any ValueObservationScheduler {
    switch kind {
    case .mainActor: MainQueueScheduler()
    case .immediately: InlineScheduler()
    }
  }
}

/// Delivers on the main queue, the main actor's: like GRDB's `.immediate`, without requiring
/// that the observation start on the main thread (a model may be created in a task).
private struct MainQueueScheduler: ValueObservationScheduler {
  func immediateInitialValue() -> Bool { true }

  func schedule(_ action: @escaping @Sendable () -> Void) {
    DispatchQueue.main.async(execute: action)
  }
}

/// Runs each notification where GRDB schedules it: on the queue that fetched the value.
private struct InlineScheduler: ValueObservationScheduler {
  func immediateInitialValue() -> Bool { true }

  func schedule(_ action: @escaping @Sendable () -> Void) {
    action()
  }
}
