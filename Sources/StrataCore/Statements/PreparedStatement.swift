/// A statement built once, with placeholders for the values given on each run: for a statement
/// an app runs again and again, where building and rendering it on every call is the cost
/// (a find by key in a loop, an update per received message).
///
/// ```swift
/// let playerByID = try PreparedStatement(UUID.self) { id in Player.find(id) }
/// let player = try playerByID(id).fetchOne(db)
///
/// let addToScore = try PreparedStatement(UUID.self, Int.self) { id, points in
///   Player.find(id).update { $0.score += points }
/// }
/// try addToScore(id, 10).execute(db)
/// ```
///
/// The closure runs once, with a ``QueryParameter`` for each value: it builds the statement as
/// any other, and a parameter goes wherever the builder takes an expression of its type (a
/// comparison, an assignment, a function's argument). Each run binds the values given into the
/// statement's SQL, rendered once for SQLite and once for PostgreSQL, and is a
/// ``QueryStatement`` that every executor runs (`fetchAll`, `fetchOne`, `execute`).
///
/// What the closure decides in Swift is decided once: an `if` on a captured value, a limit
/// given as a number, a list for `in(_:)`. Only the parameters change from run to run.
public struct PreparedStatement<each Parameter: QueryBindable, QueryValue>: Sendable {
  @usableFromInline let prepared: PreparedTemplate

  /// Builds the statement `build` returns once, with a placeholder for each of `parameters`.
  ///
  /// - Throws: ``StrataError`` when a parameter is not bound where the statement uses it (the
  ///   statement writes it into its SQL text, as a temporary view or trigger does, or leaves it
  ///   out), or when the statement may run in more than one piece (an insert of many rows).
  @_disfavoredOverload
  public init<Statement: QueryStatement<QueryValue>>(
    _ parameters: repeat (each Parameter).Type,
    statement build: (repeat QueryParameter<each Parameter>) -> Statement
  ) throws {
    prepared = try Self.prepare(repeat each parameters, statement: build)
  }

  /// Builds a statement that selects whole rows once (`Player.find(id)`): its runs decode as
  /// the table, as the statement does.
  public init(
    _ parameters: repeat (each Parameter).Type,
    statement build: (repeat QueryParameter<each Parameter>) -> Select<(), QueryValue, ()>
  ) throws where QueryValue: Table {
    prepared = try Self.prepare(repeat each parameters, statement: build)
  }

  /// Builds a statement that selects whole rows of joined tables once: its runs decode as the
  /// tables, in join order, as the statement does (`(Game, Player?)`).
  public init<From: Table, J1: Table, each J: Table>(
    _ parameters: repeat (each Parameter).Type,
    statement build: (repeat QueryParameter<each Parameter>) -> Select<(), From, (J1, repeat each J)>
  ) throws where QueryValue == (From, J1, repeat each J) {
    prepared = try Self.prepare(repeat each parameters, statement: build)
  }

  /// Runs `build` with a marker for each parameter, and finds the markers in what it builds.
  private static func prepare<Statement: QueryStatement>(
    _ parameters: repeat (each Parameter).Type, statement build: (repeat QueryParameter<each Parameter>) -> Statement
  ) throws -> PreparedTemplate {
    var markers = ParameterMarkers()
    let statement = build(repeat QueryParameter(marker: markers.next(for: each parameters)))
    return try PreparedTemplate(statement, markers: markers)
  }

  /// The statement with `values` in its placeholders, in the order of the parameters.
  /// Inlinable, so that the parameters' bindings are specialized in the app: unspecialized,
  /// reaching each value through its type's metadata cost a run as much as the rest of it.
  @inlinable
  public func callAsFunction(_ values: repeat each Parameter) -> BoundStatement<QueryValue> {
    guard !prepared.isEmpty else { return BoundStatement(prepared: prepared, bindings: []) }
    // A copy made whole up front: mutating a shared array copies it through a slower path.
    var bindings = prepared.sqlite.bindings.withUnsafeBufferPointer { Array($0) }
    var parameter = 0
    for value in repeat each values {
      bindings[prepared.firstPositions[parameter]] = value.queryBinding
      parameter += 1
    }
    for (position, parameter) in prepared.repeatedPlaces {
      bindings[position] = bindings[prepared.firstPositions[parameter]]
    }
    return BoundStatement(prepared: prepared, bindings: bindings)
  }
}

/// A value of a ``PreparedStatement``: an expression of type `Value`, bound as a parameter,
/// that stands in the statement for the value each run gives. It means something only in the
/// statement its preparation builds: used in another, it would bind a placeholder's bytes.
public struct QueryParameter<Value: QueryBindable>: QueryExpression, Sendable {
  public typealias QueryValue = Value

  public let queryFragment: QueryFragment

  init(marker: QueryBinding) {
    queryFragment = QueryFragment(binding: marker)
  }
}

/// A ``PreparedStatement`` with one run's values: run it as any statement.
public struct BoundStatement<QueryValue>: QueryStatement, Sendable {
  @usableFromInline let prepared: PreparedTemplate
  /// The SQLite text's bindings, this run's values in the parameters' places.
  @usableFromInline let bindings: [QueryBinding]

  @usableFromInline
  init(prepared: PreparedTemplate, bindings: [QueryBinding]) {
    self.prepared = prepared
    self.bindings = bindings
  }

  @inlinable
  public var queryFragment: QueryFragment { prepared.sqlite.replacingBindings(bindings) }

  @inlinable
  public var singleBatch: QueryFragment? { queryFragment }

  public var isEmpty: Bool { prepared.isEmpty }

  public var isPreparedForReuse: Bool { prepared.isPreparedForReuse }

  public func dialectFragments(maxBindings: Int) -> [QueryFragment] {
    prepared.dialect.map { template in
      var values = template.fragment.bindings
      for (position, parameter) in template.parameters { values[position] = value(of: parameter) }
      return template.fragment.replacingBindings(values)
    }
  }

  public func forEachWrittenValue(_ body: (_ table: String, _ column: String, _ value: QueryBinding) throws -> Void) rethrows {
    for written in prepared.written {
      try body(written.table, written.column, written.parameter.map(value(of:)) ?? written.value)
    }
  }

  /// The value this run gives the parameter at `index`.
  private func value(of parameter: Int) -> QueryBinding {
    bindings[prepared.firstPositions[parameter]]
  }
}

/// The bindings that stand for a prepared statement's parameters while it is built: blobs of
/// random bytes that no value of the statement holds, one per parameter.
fileprivate struct ParameterMarkers {
  private let token = (0..<2).flatMap { _ in withUnsafeBytes(of: UInt64.random(in: .min ... .max)) { Array($0) } }
  private(set) var markers: [QueryBinding] = []

  mutating func next<Value>(for _: Value.Type) -> QueryBinding {
    let marker = QueryBinding.blob(token + withUnsafeBytes(of: markers.count) { Array($0) })
    markers.append(marker)
    return marker
  }

  /// How a marker reads in SQL text (``QueryBinding/description``), to catch one written there.
  var tokenText: String { QueryBinding.blob(token).description.dropFirst(2).dropLast().description }
}

/// A prepared statement's SQL for each database, and where each parameter's value goes.
@usableFromInline
final class PreparedTemplate: Sendable {
  /// The SQLite text, the parameters' markers among its bindings.
  @usableFromInline let sqlite: QueryFragment
  /// For each parameter, the index of its first place in `sqlite`'s bindings (none for a
  /// statement that runs nothing); and the later places of a parameter used more than once.
  /// Apart, because a parameter is used once in most statements.
  @usableFromInline let firstPositions: [Int]
  @usableFromInline let repeatedPlaces: [(position: Int, parameter: Int)]
  /// The statement's fragments for other databases, with pieces they spell their own way.
  let dialect: [(fragment: QueryFragment, parameters: [(position: Int, parameter: Int)])]
  /// The values the statement writes into columns, a parameter's index where it gives one.
  let written: [(table: String, column: String, value: QueryBinding, parameter: Int?)]
  @usableFromInline let isEmpty: Bool
  let isPreparedForReuse: Bool

  fileprivate init(_ statement: some QueryStatement, markers: ParameterMarkers) throws {
    guard let sqlite = statement.singleBatch else {
      throw StrataError("a statement that may run in several pieces (an insert of many rows) cannot be prepared")
    }
    let index = Dictionary(uniqueKeysWithValues: markers.markers.enumerated().map { ($1, $0) })
    func places(_ fragment: QueryFragment) throws -> [(position: Int, parameter: Int)] {
      let places = fragment.bindings.indices.compactMap { position in index[fragment.bindings[position]].map { (position: position, parameter: $0) } }
      let bound = Set(places.map(\.parameter))
      if let missing = markers.markers.indices.first(where: { !bound.contains($0) }) {
        throw StrataError(
          "parameter \(missing + 1) of the prepared statement is not bound where the statement uses it: a parameter can stand only where the statement binds a value, not in SQL text (a temporary view or trigger) or where the statement leaves it out",
          sql: fragment.sql)
      }
      return places
    }
    isEmpty = statement.isEmpty
    isPreparedForReuse = statement.isPreparedForReuse
    self.sqlite = sqlite
    if isEmpty || markers.markers.isEmpty {
      (firstPositions, repeatedPlaces) = ([], [])
      dialect = statement.dialectFragments(maxBindings: .max).map { ($0, []) }
    } else {
      guard !sqlite.sql.contains(markers.tokenText) else {
        throw StrataError(
          "a parameter of the prepared statement is written into its SQL text: a parameter can stand only where the statement binds a value",
          sql: sqlite.sql)
      }
      let sqlitePlaces = try places(sqlite)
      // Every parameter has a place (`places` checks), so each has a first.
      let first = markers.markers.indices.map { parameter in sqlitePlaces.first { $0.parameter == parameter }!.position }
      (firstPositions, repeatedPlaces) = (first, sqlitePlaces.filter { first[$0.parameter] != $0.position })
      dialect = try statement.dialectFragments(maxBindings: .max).map { ($0, try places($0)) }
    }
    var written: [(table: String, column: String, value: QueryBinding, parameter: Int?)] = []
    // An empty statement runs nothing, so its markers stand for no place.
    let parameters = isEmpty ? [:] : index
    statement.forEachWrittenValue { table, column, value in written.append((table, column, value, parameters[value])) }
    self.written = written
  }
}
