// SQL functions written in Swift, without macros: declare one as a value, register it on the
// connections that run queries calling it, and call it in the builder like any function.
//
//   let exclaim = ScalarFunction("exclaim") { (text: String) -> String in text + "!" }
//   let median = AggregateFunction("median") { (values: [Double?]) -> Double? in … }
//
//   let database = try openDatabase(.file(path), functions: [exclaim, median])
//   Player.select { exclaim($0.name) }                        // SELECT "exclaim"("players"."name") …
//   Player.group(by: \.gameID).select { median($0.score) }
//
// Arguments are the values Strata binds and decodes (`String`, `Int`, `Double`, `Bool`, `Date`,
// `UUID`, `Data`, raw-value enums, optionals of them) or whole table rows, passed as their
// columns (`isPastDue($0)`); results are values.

/// A function SQLite calls back into Swift: its name, how many arguments it takes, and the
/// implementation the executor registers (`openDatabase(_:functions:)`).
public protocol CustomFunction: Sendable {
  /// The function's name in SQL.
  var name: String { get }
  /// How many arguments it takes.
  var argumentCount: Int { get }
  /// Whether the same arguments always give the same result, which lets SQLite use it in
  /// indexes, `CHECK`s and generated columns and call it once for constant arguments. False
  /// unless the declaration says `isDeterministic: true`, as in StructuredQueries.
  var isDeterministic: Bool { get }
  /// What SQLite calls.
  var implementation: CustomFunctionImplementation { get }
}

/// What SQLite calls for a custom function: the executor's side of ``CustomFunction``.
public enum CustomFunctionImplementation: Sendable {
  /// Called once per row with the arguments; returns the result.
  case scalar(@Sendable (FunctionArguments) throws -> QueryBinding)
  /// Creates the state of one group; the executor feeds it each row's arguments, then asks for
  /// the result.
  case aggregate(@Sendable () -> any AggregateState)
}

/// The state of one aggregation: each row's arguments in, the result out.
public protocol AggregateState: AnyObject {
  /// Takes one row's arguments.
  func step(_ arguments: FunctionArguments) throws
  /// The result for the rows taken, as a binding.
  func result() throws -> QueryBinding
}

/// The arguments of one call, read left to right as the function's argument types; the
/// executor makes one from SQLite's values, valid during the call only.
public final class FunctionArguments: QueryDecoder {
  private let values: [QueryColumnValue]
  private let function: String
  private var index = 0

  /// The arguments `values` of a call of `function`.
  public init(_ values: [QueryColumnValue], function: String) {
    self.values = values
    self.function = function
  }

  public func decode<Value>(_ expected: Any.Type, as convert: (QueryColumnValue) -> Value?) throws -> Value {
    defer { index += 1 }
    guard index < values.count else {
      throw FunctionArgumentError(function: function, argument: index + 1, expected: expected, found: "no value")
    }
    let value = values[index]
    guard let converted = convert(value) else {
      throw FunctionArgumentError(function: function, argument: index + 1, expected: expected, found: value.sqlDescription)
    }
    return converted
  }

  public func decodeNulls(count: Int) -> Bool {
    guard index + count <= values.count, values[index..<index + count].allSatisfy({ if case .null = $0 { true } else { false } })
    else { return false }
    index += count
    return true
  }

  /// Reads the next argument as `type`.
  func next<T: QueryRepresentable>(_ type: T.Type) throws -> T.QueryOutput {
    var decoder = self
    return try decoder.decode(type)
  }
}

/// An argument a custom function could not read as its declared type: SQLite reports the
/// message as the statement's error.
public struct FunctionArgumentError: Error, CustomStringConvertible, Sendable {
  public let description: String

  init(function: String, argument: Int, expected: Any.Type, found: String) {
    description = "\(function)(): argument \(argument): expected \(expected), found \(found)"
  }
}

extension QueryColumnValue {
  /// The value as a message shows it: `NULL`, `INTEGER 3`, `TEXT 'abc'`.
  var sqlDescription: String {
    switch self {
    case .null: "NULL"
    case .integer(let value): "INTEGER \(value)"
    case .real(let value): "REAL \(value)"
    case .text(let bytes): "TEXT " + SQLQuoting.string(String(decoding: bytes, as: UTF8.self))
    case .blob(let bytes): "BLOB of \(bytes.count) bytes"
    case .uuid(let uuid): "UUID \(uuid)"
    case .date(let date): "DATE \(date)"
    }
  }
}

/// A scalar function written in Swift: `ScalarFunction("exclaim") { (text: String) -> String in text + "!" }`.
///
/// Call it with expressions or values of its argument types, optional or not: `exclaim($0.name)`.
/// A NULL passed to an argument that is not optional is an error that names the function and
/// the argument. An error the body throws is the statement's error, with the error's
/// `LocalizedError.errorDescription` (or its description) as SQLite's message. A body that
/// returns nothing is a function called for its effect (in a trigger, say), whose SQL result is
/// NULL, typed `Never?`.
///
/// Arguments and results stored through a representation name it with `as:`, as
/// StructuredQueries' `@DatabaseFunction(as:)` does, while the body takes and returns the values
/// it stands for:
///
/// ```swift
/// let capitalized = ScalarFunction(
///   "capitalized", as: ((JSONRepresentation<[String]>) -> JSONRepresentation<[String]>).self
/// ) { strings in strings.map(\.capitalized) }
/// ```
public struct ScalarFunction<each Argument: QueryRepresentable & SendableMetatype, Result: QueryBindable & SendableMetatype>: CustomFunction {
  public let name: String
  public let isDeterministic: Bool
  private let invoke: @Sendable (FunctionArguments) throws -> QueryBinding

  /// A function called `name`, whose result is `body`'s for the arguments.
  public init(_ name: String, isDeterministic: Bool = false, _ body: @escaping @Sendable (repeat each Argument) throws -> Result)
  where repeat (each Argument).QueryOutput == each Argument, Result.QueryOutput == Result {
    self.init(name, isDeterministic: isDeterministic) { arguments in
      try body(repeat try arguments.next((each Argument).self)).queryBinding
    }
  }

  /// A function called `name` whose arguments and result are read and written through the
  /// representations `signature` names: `body` takes and returns the values they stand for.
  public init(
    _ name: String, as signature: ((repeat each Argument) -> Result).Type, isDeterministic: Bool = false,
    _ body: @escaping @Sendable (repeat (each Argument).QueryOutput) throws -> Result.QueryOutput
  ) {
    self.init(name, isDeterministic: isDeterministic) { arguments in
      Result(queryOutput: try body(repeat try arguments.next((each Argument).self))).queryBinding
    }
  }

  /// A function called `name` that returns nothing: SQL reads its result as NULL.
  public init(_ name: String, isDeterministic: Bool = false, _ body: @escaping @Sendable (repeat each Argument) throws -> Void)
  where repeat (each Argument).QueryOutput == each Argument, Result == Never? {
    self.init(name, isDeterministic: isDeterministic) { arguments in
      try body(repeat try arguments.next((each Argument).self))
      return .null
    }
  }

  private init(_ name: String, isDeterministic: Bool, invoke: @escaping @Sendable (FunctionArguments) throws -> QueryBinding) {
    self.name = name
    self.isDeterministic = isDeterministic
    self.invoke = invoke
  }

  /// `"name"(arguments…)`.
  public func callAsFunction<each Expression: QueryExpression>(
    _ arguments: repeat each Expression
  ) -> AnyQueryExpression<Result>
  where repeat (each Expression).QueryValue: QueryRepresentable, repeat (each Expression).QueryValue.Unwrapped == (each Argument).Unwrapped {
    AnyQueryExpression(CustomFunctionCall.fragment(name, repeat each arguments))
  }

  public var argumentCount: Int { CustomFunctionCall.count(repeat (each Argument).self) }

  public var implementation: CustomFunctionImplementation { .scalar(invoke) }
}

/// An aggregate function written in Swift: its body gets the arguments of every row of a group,
/// in the order SQLite reads them, and returns the group's result.
///
/// ```swift
/// let median = AggregateFunction("median") { (values: [Double?]) -> Double? in
///   let sorted = values.compactMap { $0 }.sorted()
///   return sorted.isEmpty ? nil : sorted[sorted.count / 2]
/// }
/// Player.group(by: \.gameID).select { ($0.gameID, median($0.score)) }
/// ```
///
/// With several arguments, each row is a tuple: `{ (rows: [(Double, Double)]) -> Double? in … }`.
/// As for ``ScalarFunction``, `as:` names representations, and an error the body throws is the
/// statement's error.
public struct AggregateFunction<each Argument: QueryRepresentable & SendableMetatype, Result: QueryBindable & SendableMetatype>: CustomFunction {
  public let name: String
  public let isDeterministic: Bool
  private let makeState: @Sendable () -> any AggregateState

  /// An aggregate called `name`, whose result for a group is `body`'s for its rows' arguments
  /// (no rows for an empty group).
  public init(_ name: String, isDeterministic: Bool = false, _ body: @escaping @Sendable ([(repeat each Argument)]) throws -> Result)
  where repeat (each Argument).QueryOutput == each Argument, Result.QueryOutput == Result {
    self.name = name
    self.isDeterministic = isDeterministic
    makeState = { Rows(finish: body) }
  }

  /// An aggregate called `name` whose arguments and result are read and written through the
  /// representations `signature` names: `body` takes and returns the values they stand for.
  public init(
    _ name: String, as signature: (([(repeat each Argument)]) -> Result).Type, isDeterministic: Bool = false,
    _ body: @escaping @Sendable ([(repeat (each Argument).QueryOutput)]) throws -> Result.QueryOutput
  ) {
    self.name = name
    self.isDeterministic = isDeterministic
    makeState = { Rows { rows in Result(queryOutput: try body(rows)) } }
  }

  /// `"name"([DISTINCT] arguments…) [FILTER (WHERE filter)]`: with `distinct`, the body gets each
  /// distinct argument once.
  public func callAsFunction<each Expression: QueryExpression>(
    _ arguments: repeat each Expression, distinct: Bool = false, filter: (any QueryExpression<Bool>)? = nil
  ) -> AnyQueryExpression<Result>
  where repeat (each Expression).QueryValue: QueryRepresentable, repeat (each Expression).QueryValue.Unwrapped == (each Argument).Unwrapped {
    var fragments: [QueryFragment] = []
    for argument in repeat each arguments { fragments.append(argument.queryFragment.argument) }
    return Aggregate.call(
      QueryFragment(quoting: name), fragments.joined(separator: ", "), nil, distinct: distinct, filter: filter)
  }

  public var argumentCount: Int { CustomFunctionCall.count(repeat (each Argument).self) }

  public var implementation: CustomFunctionImplementation { .aggregate(makeState) }

  /// The rows of one group, collected until the result is asked for.
  private final class Rows: AggregateState {
    let finish: ([(repeat (each Argument).QueryOutput)]) throws -> Result
    var rows: [(repeat (each Argument).QueryOutput)] = []

    init(finish: @escaping ([(repeat (each Argument).QueryOutput)]) throws -> Result) {
      self.finish = finish
    }

    func step(_ arguments: FunctionArguments) throws {
      rows.append((repeat try arguments.next((each Argument).self)))
    }

    func result() throws -> QueryBinding {
      try finish(rows).queryBinding
    }
  }
}

enum CustomFunctionCall {
  static func fragment<each Expression: QueryExpression>(_ name: String, _ arguments: repeat each Expression) -> QueryFragment {
    var fragments: [QueryFragment] = []
    for argument in repeat each arguments { fragments.append(argument.queryFragment) }
    return SQLOperator.call(QueryFragment(quoting: name), fragments)
  }

  /// How many SQL arguments values of `types` take: one per column, so a table row is all of
  /// its columns.
  static func count<each T: QueryRepresentable>(_ types: repeat (each T).Type) -> Int {
    var count = 0
    for type in repeat each types { count += type.queryColumnCount }
    return count
  }
}
