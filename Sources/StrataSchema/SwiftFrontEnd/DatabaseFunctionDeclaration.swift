/// A Swift function annotated `// @DatabaseFunction`, as written: the generator makes it an SQL
/// function whose call in a query keeps the function's argument labels and default values.
///
/// ```swift
/// // @DatabaseFunction
/// func concat(first: String = "", second: String = "") -> String { first + second }
/// // @DatabaseFunction
/// func sum(of values: some Sequence<Int>) -> Int { values.reduce(0, +) }   // an aggregate
/// // @DatabaseFunction
/// var epoch: Date { Date(timeIntervalSince1970: 0) }   // no arguments, used without a call
/// ```
struct DatabaseFunctionDeclaration: Sendable {
  static let annotation = "DatabaseFunction"

  /// One argument of the SQL function: a parameter, or an element of an aggregate's row tuple.
  struct Argument: Hashable, Sendable {
    /// The label a call writes (nil for `_`).
    var label: String?
    /// The parameter's name inside the function (for an aggregate's row, the element's label).
    var name: String?
    var type: TypeSyntax
    /// The default value, as written.
    var defaultValue: Expression?
  }

  /// The function's Swift name.
  var name: String
  /// The types it is declared in, outermost first (a `static func`); empty at the top level.
  var scope: [String]
  var accessLevel: AccessLevel?
  var annotations: [Annotation]
  var arguments: [Argument]
  /// For an aggregate (a single `some Sequence<Row>` parameter): the parameter; the arguments
  /// are the row's elements.
  var aggregateParameter: AggregateParameter?
  /// The sequence parameter of an aggregate.
  struct AggregateParameter: Hashable, Sendable {
    var label: String?
    var name: String
    /// Whether the row is a tuple, whose elements are the arguments (else the one argument is
    /// the row).
    var isTuple: Bool
  }
  /// The result type; nil for a function that returns nothing.
  var result: TypeSyntax?
  var isThrowing: Bool
  var location: SourceLocation
  /// Whether it is a computed property (`var epoch: Date { … }`), read without a call.
  var isProperty = false
}
