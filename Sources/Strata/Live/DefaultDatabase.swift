import Foundation
import GRDB

/// The database live queries (`@FetchAll`, `@FetchOne`, `@Fetch`) read when they are not given
/// one.
///
/// Set it once at launch; tests and previews override it for a task and the tasks it starts:
///
/// ```swift
/// DefaultDatabase.set(try openDatabase(.file(path)))          // at launch
///
/// try await DefaultDatabase.with(try openDatabase(.inMemory)) {  // in a test
///   let model = PlayersModel()                                // reads the in-memory database
///   …
/// }
/// ```
///
/// A live query resolves the database when it is created: changing the default later does not
/// move existing ones.
public enum DefaultDatabase {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var launchDatabase: (any DatabaseReader)?
  nonisolated(unsafe) private static var resolver: (@Sendable () -> (any DatabaseReader)?)?

  @TaskLocal private static var taskDatabase: (any DatabaseReader)?

  /// The database for the current task: its override, the one an integration resolves (see
  /// ``resolve(with:)``), or the one set at launch.
  public static var current: (any DatabaseReader)? {
    if let taskDatabase { return taskDatabase }
    let resolved: (any DatabaseReader)? = lock.withLock { resolver }?()
    return resolved ?? lock.withLock { launchDatabase }
  }

  /// Makes `resolver` the way live queries find their database when the task has no override:
  /// for an integration with a dependency system (`StrataDependencies` resolves
  /// `@Dependency(\.defaultDatabase)`). It returns nil to fall back to ``set(_:)``'s database.
  public static func resolve(with resolver: (@Sendable () -> (any DatabaseReader)?)?) {
    lock.withLock { self.resolver = resolver }
  }

  /// Makes `database` the default for every task that has no override (nil: no default).
  public static func set(_ database: (any DatabaseReader)?) {
    lock.withLock { launchDatabase = database }
  }

  /// Runs `operation` with `database` as the default for the current task and the tasks it
  /// creates.
  public static func with<Result>(
    _ database: any DatabaseReader, operation: () throws -> Result
  ) rethrows -> Result {
    try $taskDatabase.withValue(database, operation: operation)
  }

  /// Runs `operation` with `database` as the default for the current task and the tasks it
  /// creates.
  public static func with<Result>(
    _ database: any DatabaseReader, isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    try await $taskDatabase.withValue(database, operation: operation, isolation: isolation)
  }
}
