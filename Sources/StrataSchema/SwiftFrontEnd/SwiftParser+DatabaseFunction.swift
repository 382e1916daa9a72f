// Reads the signature of a function annotated `// @DatabaseFunction`: its name, parameters
// (labels, names, types, default values), `throws` and result type. The body is skipped like
// any other function's. What cannot become an SQL function (generics, `async`, `inout`) is an
// error at the token.

extension SwiftParser {
  /// An error in a `@DatabaseFunction`'s declaration: an error wherever the file is, since the
  /// compiler accepts the function and only the generator cannot use it.
  private mutating func functionError(_ message: String, at location: SourceLocation) {
    functionErrors.append(Diagnostic(.error, message, at: location))
  }

  /// The name after the declaration's keyword, the parser past it; nil, the declaration
  /// skipped and the error reported, when there is none.
  private mutating func declaredName(_ what: String) -> (token: SwiftToken, name: String)? {
    advance()
    guard isIdentifier else {
      functionError("@DatabaseFunction needs a named \(what)", at: location(of: current))
      skipFunctionLike()
      return nil
    }
    let token = current
    advance()
    return (token, identifierText(token))
  }

  /// Reports `message` and skips the rest of the declaration.
  private mutating func failing(_ message: String, at location: SourceLocation) -> DatabaseFunctionDeclaration? {
    functionError(message, at: location)
    skipFunctionLike()
    return nil
  }

  /// Reads `func name(parameters) [throws] [-> Result] { … }` from the `func` keyword.
  mutating func parseDatabaseFunction(
    annotations: [Annotation], modifiers: Modifiers, scope: [String]
  ) -> DatabaseFunctionDeclaration? {
    guard let (nameToken, name) = declaredName("function (operators cannot be SQL functions)") else { return nil }
    func fail(_ message: String) -> DatabaseFunctionDeclaration? { failing(message, at: location(of: current)) }
    if !scope.isEmpty, !modifiers.isStatic {
      return fail(
        "@DatabaseFunction \(name) is an instance method: make it static, or a top-level function (for a function with state, capture it in a ScalarFunction value)")
    }
    if isPunctuation("<") { return fail("@DatabaseFunction \(name) is generic: SQL functions take concrete types") }
    guard isPunctuation("(") else { return fail("expected the parameters of \(name)") }
    advance()
    var parameters: [Parameter] = []
    while !atEnd, !isPunctuation(")") {
      guard let parameter = parseFunctionParameter(of: name) else {
        skipFunctionLike()
        return nil
      }
      parameters.append(parameter)
      if isPunctuation(",") { advance() } else { break }
    }
    guard isPunctuation(")") else { return fail("expected ')' after the parameters of \(name)") }
    advance()
    var isThrowing = false
    while ["async", "throws", "rethrows"].contains(currentText) {
      if currentText == "async" { return fail("@DatabaseFunction \(name) is async: SQLite calls functions synchronously") }
      isThrowing = true
      advance()
      if isPunctuation("("), !current.followsSpace { skipBalancedToken() }
    }
    var result: TypeSyntax?
    if isPunctuation("->") {
      advance()
      result = parseTypeSyntax()
      if result?.text == "Void" || result?.text == "()" { result = nil }
    }
    if currentText == "where" { return fail("@DatabaseFunction \(name) is generic: SQL functions take concrete types") }
    skipFunctionLike()

    var function = DatabaseFunctionDeclaration(
      name: name, scope: scope, accessLevel: modifiers.accessLevel, annotations: annotations, arguments: [],
      aggregateParameter: nil, result: result, isThrowing: isThrowing, location: location(of: nameToken))
    if parameters.count == 1, let row = parameters[0].sequenceElement {
      let parameter = parameters[0]
      function.aggregateParameter = .init(label: parameter.label, name: parameter.name, isTuple: row.count > 1)
      function.arguments = row.enumerated().map { index, element in
        // The first argument is written with the sequence's label, the others with the row's.
        .init(label: index == 0 ? parameter.label : element.label, name: element.label, type: element.type, defaultValue: nil)
      }
    } else {
      if let aggregate = parameters.first(where: { $0.sequenceElement != nil }) {
        functionError(
          "@DatabaseFunction \(name): an aggregate takes one parameter, a 'some Sequence<…>' of its rows (a tuple for several arguments); \(aggregate.name) is one of \(parameters.count)",
          at: aggregate.location)
        return nil
      }
      function.arguments = parameters.map {
        .init(label: $0.label, name: $0.name, type: $0.type, defaultValue: $0.defaultValue)
      }
    }
    return function
  }

  /// Reads `var name: Result { … }` from the `var` keyword: StructuredQueries' computed-property
  /// form of a function without arguments, whose SQL function a query uses without a call.
  mutating func parseDatabaseFunctionProperty(
    annotations: [Annotation], modifiers: Modifiers, scope: [String]
  ) -> DatabaseFunctionDeclaration? {
    let keyword = currentText
    guard let (nameToken, name) = declaredName("property") else { return nil }
    func fail(_ message: String) -> DatabaseFunctionDeclaration? { failing(message, at: location(of: nameToken)) }
    let stored = "@DatabaseFunction \(name) is a stored value: SQL calls a function, so make it computed (var \(name): Type { … })"
    if !scope.isEmpty, !modifiers.isStatic {
      return fail("@DatabaseFunction \(name) is an instance property: make it static, or a top-level property")
    }
    guard keyword == "var", isPunctuation(":") else { return fail(stored) }
    advance()
    guard let result = parseTypeSyntax() else { return fail("expected the type of \(name)") }
    guard isPunctuation("{") else { return fail(stored) }
    let isThrowing = peekText(1) == "get" && peekText(2) == "throws"
    if peekText(1) == "get", peekText(2) == "async" { return fail("@DatabaseFunction \(name) is async: SQLite calls functions synchronously") }
    skipFunctionLike()
    var function = DatabaseFunctionDeclaration(
      name: name, scope: scope, accessLevel: modifiers.accessLevel, annotations: annotations, arguments: [],
      aggregateParameter: nil, result: result, isThrowing: isThrowing, location: location(of: nameToken))
    function.isProperty = true
    return function
  }

  /// One parameter as written.
  struct Parameter {
    var label: String?
    var name: String
    var type: TypeSyntax
    var defaultValue: Expression?
    /// The row of a `some Sequence<Row>` parameter: its elements, labeled or not.
    var sequenceElement: [(label: String?, type: TypeSyntax)]?
    var location: SourceLocation
  }

  /// `[label] name: Type [= default]`.
  private mutating func parseFunctionParameter(of function: String) -> Parameter? {
    let start = current
    guard isIdentifier || currentText == "_" else {
      functionError("expected a parameter of \(function)", at: location(of: current))
      return nil
    }
    var label: String? = currentText == "_" ? nil : identifierText(current)
    var name = label ?? "_"
    advance()
    if isIdentifier {
      name = identifierText(current)
      advance()
    } else if label == nil {
      functionError("expected the parameter's name after '_'", at: location(of: current))
      return nil
    }
    if label != nil, name == "_" { label = nil }
    guard isPunctuation(":") else {
      functionError("expected ':' and the type of \(name)", at: location(of: current))
      return nil
    }
    advance()
    if ["inout", "borrowing", "consuming"].contains(currentText) {
      functionError("@DatabaseFunction \(function): '\(currentText)' parameters cannot be SQL arguments", at: location(of: current))
      return nil
    }
    var sequenceElement: [(label: String?, type: TypeSyntax)]?
    let type: TypeSyntax
    if currentText == "some", peekText(1) == "Sequence", peekText(2) == "<" {
      advance()
      advance()
      advance()
      guard let elements = parseSequenceRow(of: function) else { return nil }
      sequenceElement = elements
      type = .unsupported("some Sequence")
    } else if let parsed = parseTypeSyntax() {
      type = parsed
    } else {
      functionError("expected the type of \(name)", at: location(of: current))
      return nil
    }
    if isPunctuation("...") {
      functionError("@DatabaseFunction \(function): a variadic parameter cannot be an SQL argument", at: location(of: current))
      return nil
    }
    var defaultValue: Expression?
    if isPunctuation("=") {
      advance()
      defaultValue = parseExpression(stopAtComma: true)
    }
    return Parameter(
      label: label, name: name, type: type, defaultValue: defaultValue, sequenceElement: sequenceElement,
      location: location(of: start))
  }

  /// The row type of `some Sequence<Row>`, after the `<`, through the `>`: a type, or a tuple of
  /// types whose elements after the first may be labeled.
  private mutating func parseSequenceRow(of function: String) -> [(label: String?, type: TypeSyntax)]? {
    var elements: [(label: String?, type: TypeSyntax)] = []
    if isPunctuation("(") {
      advance()
      while !atEnd, !isPunctuation(")") {
        var label: String?
        if isIdentifier, peekText(1) == ":" {
          label = identifierText(current)
          advance()
          advance()
        }
        guard let type = parseTypeSyntax() else { break }
        elements.append((label, type))
        if isPunctuation(",") { advance() } else { break }
      }
      guard isPunctuation(")") else {
        functionError("expected ')' after the row of \(function)", at: location(of: current))
        return nil
      }
      advance()
    } else if let type = parseTypeSyntax() {
      elements.append((nil, type))
    }
    guard !elements.isEmpty, isPunctuation(">") else {
      functionError("expected the row type of \(function)'s sequence, then '>'", at: location(of: current))
      return nil
    }
    advance()
    return elements
  }
}
