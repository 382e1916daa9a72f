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
  func result() -> QueryBinding
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
/// the argument.
public struct ScalarFunction<each Argument: QueryRepresentable & SendableMetatype, Result: QueryBindable & SendableMetatype>: CustomFunction
where repeat (each Argument).QueryOutput == each Argument, Result.QueryOutput == Result {
  public let name: String
  public let isDeterministic: Bool
  private let body: @Sendable (repeat each Argument) -> Result

  /// A function called `name`, whose result is `body`'s for the arguments.
  public init(_ name: String, isDeterministic: Bool = false, _ body: @escaping @Sendable (repeat each Argument) -> Result) {
    self.name = name
    self.isDeterministic = isDeterministic
    self.body = body
  }

  /// `"name"(arguments…)`.
  public func callAsFunction<each Expression: QueryExpression>(
    _ arguments: repeat each Expression
  ) -> AnyQueryExpression<Result>
  where repeat (each Expression).QueryValue: QueryRepresentable, repeat (each Expression).QueryValue.Unwrapped == (each Argument).Unwrapped {
    AnyQueryExpression(CustomFunctionCall.fragment(name, repeat each arguments))
  }

  public var argumentCount: Int { CustomFunctionCall.count(repeat (each Argument).self) }

  public var implementation: CustomFunctionImplementation {
    .scalar { [body] arguments in
      body(repeat try arguments.next((each Argument).self)).queryBinding
    }
  }
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
public struct AggregateFunction<each Argument: QueryRepresentable & SendableMetatype, Result: QueryBindable & SendableMetatype>: CustomFunction
where repeat (each Argument).QueryOutput == each Argument, Result.QueryOutput == Result {
  public let name: String
  public let isDeterministic: Bool
  private let body: @Sendable ([(repeat each Argument)]) -> Result

  /// An aggregate called `name`, whose result for a group is `body`'s for its rows' arguments
  /// (no rows for an empty group).
  public init(_ name: String, isDeterministic: Bool = false, _ body: @escaping @Sendable ([(repeat each Argument)]) -> Result) {
    self.name = name
    self.isDeterministic = isDeterministic
    self.body = body
  }

  /// `"name"(arguments…)`.
  public func callAsFunction<each Expression: QueryExpression>(
    _ arguments: repeat each Expression
  ) -> AnyQueryExpression<Result>
  where repeat (each Expression).QueryValue: QueryRepresentable, repeat (each Expression).QueryValue.Unwrapped == (each Argument).Unwrapped {
    AnyQueryExpression(CustomFunctionCall.fragment(name, repeat each arguments))
  }

  public var argumentCount: Int { CustomFunctionCall.count(repeat (each Argument).self) }

  public var implementation: CustomFunctionImplementation {
    .aggregate { [body] in Rows(body: body) }
  }

  /// The rows of one group, collected until the result is asked for.
  private final class Rows: AggregateState {
    let body: @Sendable ([(repeat each Argument)]) -> Result
    var rows: [(repeat each Argument)] = []

    init(body: @escaping @Sendable ([(repeat each Argument)]) -> Result) {
      self.body = body
    }

    func step(_ arguments: FunctionArguments) throws {
      rows.append((repeat try arguments.next((each Argument).self)))
    }

    func result() -> QueryBinding {
      body(rows).queryBinding
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
