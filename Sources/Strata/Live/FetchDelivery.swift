import Foundation
import GRDB

/// Where a live query's new values are delivered.
public struct FetchDelivery: Sendable, Hashable {
  enum Kind: Hashable {
    case mainActor
    case immediately
  }

  let kind: Kind

  /// On the main actor, for user interfaces (the default). Every change of the live query's
  /// state — value, `isLoading`, `loadError` — happens on the main actor, after its first value,
  /// so code on the main actor that reads it and tracks it with Observation never misses one.
  public static let mainActor = FetchDelivery(kind: .mainActor)

  /// As soon as the value is fetched, on the database connection's queue, for code that is not
  /// a user interface. Reading the wrapped value is safe from any thread.
  public static let immediately = FetchDelivery(kind: .immediately)

  /// GRDB's scheduler for an observation whose first value is fetched in place, synchronously,
  /// so a live query has it before its initializer returns.
  var firstValueInPlace: any ValueObservationScheduler {
    switch kind {
    case .mainActor: MainQueueScheduler(fetchesFirstValueInPlace: true)
    case .immediately: InlineScheduler(fetchesFirstValueInPlace: true)
    }
  }

  /// GRDB's scheduler for an observation whose first value arrives like every later one (after
  /// `load` or a refresh): on the main queue, or on the database's.
  var allValuesDelivered: any ValueObservationScheduler {
    switch kind {
    case .mainActor: MainQueueScheduler(fetchesFirstValueInPlace: false)
    case .immediately: InlineScheduler(fetchesFirstValueInPlace: false)
    }
  }

  /// Runs `change`, which changes a live query's state, where this delivery changes state.
  func perform(_ change: @escaping @Sendable () -> Void) {
    switch kind {
    case .mainActor: DispatchQueue.main.async(execute: change)
    case .immediately: change()
    }
  }
}

/// Delivers on the main queue, the main actor's: like GRDB's `.immediate`, without requiring
/// that the observation start on the main thread (a model may be created in a task).
private struct MainQueueScheduler: ValueObservationScheduler {
  let fetchesFirstValueInPlace: Bool

  func immediateInitialValue() -> Bool { fetchesFirstValueInPlace }

  func schedule(_ action: @escaping @Sendable () -> Void) {
    DispatchQueue.main.async(execute: action)
  }
}

/// Runs each notification where GRDB schedules it: on the queue that fetched the value.
private struct InlineScheduler: ValueObservationScheduler {
  let fetchesFirstValueInPlace: Bool

  func immediateInitialValue() -> Bool { fetchesFirstValueInPlace }

  func schedule(_ action: @escaping @Sendable () -> Void) {
    action()
  }
}
