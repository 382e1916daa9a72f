// `@Dependency(\.defaultDatabase)`, as SQLiteData spells it, for apps that use
// swift-dependencies: the database the app's code and its live queries read.
@_exported import Strata

#if Dependencies
@_exported import Dependencies

extension DependencyValues {
  /// The app's database, which `@FetchAll`, `@FetchOne` and `@Fetch` read when they are not
  /// given one.
  ///
  /// ```swift
  /// // At launch:
  /// prepareDependencies { $0.defaultDatabase = try! appDatabase() }
  ///
  /// // In a model:
  /// @ObservationIgnored @Dependency(\.defaultDatabase) var database
  /// @ObservationIgnored @FetchAll(Player.order(by: \.name)) var players   // reads it too
  ///
  /// // In a test:
  /// try await withDependencies { $0.defaultDatabase = try testDatabase() } operation: { … }
  /// ```
  ///
  /// Setting it makes live queries find their database here (``DefaultDatabase/resolve(with:)``):
  /// a test's `withDependencies` scope gives the live queries created in it that scope's database.
  /// Unset, it reports an issue (a test failure where swift-dependencies' test support is linked)
  /// and is an empty in-memory database; live queries then read ``DefaultDatabase``'s.
  public var defaultDatabase: any DatabaseWriter {
    get { self[DefaultDatabaseKey.self].database ?? DefaultDatabaseKey.unset() }
    set {
      self[DefaultDatabaseKey.self] = DefaultDatabaseKey(database: newValue)
      // Live queries ask the dependency in scope; where none was set, they fall back to the
      // database `DefaultDatabase.set(_:)` gave, without an issue.
      DefaultDatabase.resolve { DependencyValues._current[DefaultDatabaseKey.self].database }
    }
  }
}

/// The database set for the dependency, or nil where none was.
private struct DefaultDatabaseKey: DependencyKey, Sendable {
  var database: (any DatabaseWriter)?

  static var liveValue: Self { Self(database: nil) }
  static var testValue: Self { Self(database: nil) }

  static func unset() -> any DatabaseWriter {
    reportIssue(
      """
      No database was given for @Dependency(\\.defaultDatabase): set it at launch, \
      prepareDependencies { $0.defaultDatabase = try appDatabase() }, and in tests with \
      withDependencies. An empty in-memory database stands in.
      """)
    // An in-memory queue opens without touching the file system.
    return try! DatabaseQueue()
  }
}
#else
#error(
  """
  StrataDependencies needs Strata's Dependencies trait: depend on Strata with \
  .package(url: "https://github.com/strata-swift/Strata.git", from: "0.1.0", traits: ["Dependencies"]) \
  (in this repository, build with --traits Dependencies)
  """)
#endif
