// The SQL function of each `// @DatabaseFunction` Swift function: a type whose calls keep the
// function's labels and default values, and a value of it to register and call.
//
//   // @DatabaseFunction
//   func concat(first: String = "", second: String = "") -> String { first + second }
//
// becomes `concatFunction`, a `ConcatDatabaseFunction`, called in queries as
// `concatFunction(first: $0.title, second: "!")` and registered with
// `openDatabase(_:functions: [concatFunction])`.

extension SwiftEmitter {
  static func emitDatabaseFunctions(_ functions: [DatabaseFunctionModel], into writer: inout CodeWriter) {
    for function in functions {
      writer.blank()
      if let scope = function.scope {
        writer.block("nonisolated extension \(SwiftLiteral.qualifiedName(scope))") { writer in
          emit(function, isStatic: true, into: &writer)
        }
      } else {
        emit(function, isStatic: false, into: &writer)
      }
    }
  }

  /// The name of the value that stands for `function`: `concatFunction`.
  static func valueName(of function: DatabaseFunctionModel) -> String {
    function.swiftName + "Function"
  }

  /// The name of its type: `ConcatDatabaseFunction`.
  static func typeName(of function: DatabaseFunctionModel) -> String {
    function.swiftName.prefix(1).uppercased() + function.swiftName.dropFirst() + "DatabaseFunction"
  }

  private static func emit(_ function: DatabaseFunctionModel, isStatic: Bool, into writer: inout CodeWriter) {
    let access = function.access.rawValue
    let type = SwiftLiteral.identifier(typeName(of: function))
    let result = function.resultType ?? "Never?"
    let swiftCall = (function.scope.map { SwiftLiteral.qualifiedName($0) + "." } ?? "") + SwiftLiteral.identifier(function.swiftName)
    let signature = "`" + SwiftLiteral.comment(function.isProperty ? function.swiftName : "\(function.swiftName)(\(function.swiftLabels))") + "`"
    writer.line("/// The SQL function \(SwiftLiteral.comment(SwiftLiteral.string(function.sqlName))), which calls \(signature): register it with")
    writer.line("/// `openDatabase(_:functions:)` and call it in queries with the function's labels.")
    // Without arguments it is an expression too, as StructuredQueries' computed-property form is
    // used: `Values(epochFunction)`.
    let conformances = function.arguments.isEmpty && function.aggregate == nil
      ? "StrataCore.CustomFunction, StrataCore.DatabaseExpression" : "StrataCore.CustomFunction"
    writer.block("\(access)nonisolated struct \(type): \(conformances)") { writer in
      writer.line("// SQLite calls the function on its connection's thread: in a module whose code is the main")
      writer.line("// actor's by default, declare it `nonisolated`.")
      writer.line(
        "private let function = StrataCore.\(function.aggregate == nil ? "Scalar" : "Aggregate")Function(\(SwiftLiteral.string(function.sqlName)), isDeterministic: \(function.isDeterministic)) {")
      writer.indented { writer in emitBody(function, call: swiftCall, result: result, into: &writer) }
      writer.line("}")
      writer.blank()
      writer.line("\(access)init() {}")
      writer.blank()
      writer.line("\(access)var name: String { function.name }")
      writer.line("\(access)var argumentCount: Int { function.argumentCount }")
      writer.line("\(access)var isDeterministic: Bool { function.isDeterministic }")
      writer.line("\(access)var implementation: StrataCore.CustomFunctionImplementation { function.implementation }")
      emitCalls(function, access: access, result: result, into: &writer)
      if function.arguments.isEmpty, function.aggregate == nil {
        writer.blank()
        writer.line("/// `\(SwiftLiteral.comment(SwiftLiteral.string(function.sqlName)))()` without a call.")
        writer.line("\(access)typealias QueryValue = \(result)")
        writer.line("\(access)var queryFragment: StrataCore.QueryFragment { function().queryFragment }")
      }
    }
    writer.blank()
    writer.line("/// The SQL function that calls \(signature).")
    writer.line("\(access)nonisolated \(isStatic ? "static " : "")let \(SwiftLiteral.identifier(valueName(of: function))) = \(type)()")
  }

  /// The closure SQLite's calls reach: the Swift function, called with its labels.
  private static func emitBody(
    _ function: DatabaseFunctionModel, call: String, result: String, into writer: inout CodeWriter
  ) {
    let effects = function.isThrowing ? " throws" : ""
    let returns = function.resultType ?? "Void"
    let tryKeyword = function.isThrowing ? "try " : ""
    if let aggregate = function.aggregate {
      let row = function.arguments.count == 1
        ? function.arguments[0].swiftType : "(" + function.arguments.map(\.swiftType).joined(separator: ", ") + ")"
      var rows = "rows"
      if let labels = aggregate.rowLabels {
        let elements = labels.enumerated().map { index, label in (label.map { SwiftLiteral.identifier($0) + ": " } ?? "") + "$0.\(index)" }
        rows = "rows.map { (" + elements.joined(separator: ", ") + ") }"
      }
      let label = aggregate.label.map { SwiftLiteral.identifier($0) + ": " } ?? ""
      writer.line("(rows: [\(row)])\(effects) -> \(returns) in")
      writer.line("  \(tryKeyword)\(call)(\(label)\(rows))")
    } else {
      let parameters = function.arguments.enumerated().map { index, argument in "argument\(index + 1): \(argument.swiftType)" }
      let arguments = function.arguments.enumerated().map { index, argument in
        (argument.label.map { SwiftLiteral.identifier($0) + ": " } ?? "") + "argument\(index + 1)"
      }
      writer.line("(\(parameters.joined(separator: ", ")))\(effects) -> \(returns) in")
      writer.line("  \(tryKeyword)\(call)" + (function.isProperty ? "" : "(\(arguments.joined(separator: ", ")))"))
    }
  }

  /// `callAsFunction` with the function's labels and defaults, and, when it has labels, one
  /// without them too, as StructuredQueries' functions are called either way.
  private static func emitCalls(
    _ function: DatabaseFunctionModel, access: String, result: String, into writer: inout CodeWriter
  ) {
    var forms = [true]
    if function.arguments.contains(where: { $0.label != nil }) { forms.append(false) }
    for labeled in forms {
      let generics = function.arguments.indices.map { "Argument\($0 + 1): StrataCore.QueryExpression" }
      let parameters = function.arguments.enumerated().map { index, argument in
        let label = labeled ? argument.label.map(SwiftLiteral.identifier) ?? "_" : "_"
        let defaultValue = labeled ? argument.defaultValue.map { " = (\($0) as \(argument.swiftType))" } ?? "" : ""
        return "\(label) argument\(index + 1): Argument\(index + 1)\(defaultValue)"
      }
      // An expression of the argument's type, optional or not, as for any function.
      let requirements = function.arguments.enumerated().flatMap { index, argument in
        [
          "Argument\(index + 1).QueryValue: StrataCore.QueryRepresentable",
          "Argument\(index + 1).QueryValue.Unwrapped == \(argument.unwrappedSwiftType)",
        ]
      }
      var extra: [String] = []
      var passed = function.arguments.indices.map { "argument\($0 + 1)" }
      if function.aggregate != nil {
        extra = ["distinct: Bool = false", "filter: (any StrataCore.QueryExpression<Bool>)? = nil"]
        passed += ["distinct: distinct", "filter: filter"]
      }
      writer.blank()
      writer.line("/// `\(SwiftLiteral.comment(SwiftLiteral.string(function.sqlName)))(…)`\(function.aggregate == nil ? "" : ", with `DISTINCT` and `FILTER (WHERE …)` as for any aggregate").")
      let genericClause = generics.isEmpty ? "" : "<" + generics.joined(separator: ", ") + ">"
      writer.list("\(access)func callAsFunction\(genericClause)(", parameters + extra, ") -> StrataCore.AnyQueryExpression<\(result)>")
      if !requirements.isEmpty {
        writer.line("where " + requirements.joined(separator: ", "))
      }
      writer.line("{")
      writer.line("  function(\(passed.joined(separator: ", ")))")
      writer.line("}")
    }
  }
}

extension DatabaseFunctionModel {
  /// The Swift function's labels as its name spells them: `first:second:`.
  var swiftLabels: String {
    if let aggregate { return (aggregate.label ?? "_") + ":" }
    return arguments.map { ($0.label ?? "_") + ":" }.joined()
  }
}
