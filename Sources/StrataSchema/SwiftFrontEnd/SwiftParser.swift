/// Reads the declarations of a Swift file: types (with their nesting), stored and computed
/// properties, enum cases, typealiases, and the annotation comments above them.
///
/// It parses the declaration subset of Swift and skips the rest by matching brackets over the
/// lexer's tokens: function bodies, statements and expressions are never parsed. Members it
/// cannot read are recorded, so that the translation can report them when they are inside a
/// model, and ignore them elsewhere.
struct SwiftParser {
  let lexer: SwiftLexer
  let tokens: [SwiftToken]
  private let path: String
  var position = 0
  var diagnostics: Diagnostics
  /// The column of the first token on each line, to tell annotation comments on lines of their
  /// own from comments that trail code.
  private let firstTokenColumn: [Int: Int]
  private let commentsByEndLine: [Int: SwiftComment]
  /// The lines of comments read as a declaration's annotations; the other annotation comments
  /// apply to nothing.
  private var attachedCommentLines: Set<Int> = []
  /// Annotations above declarations that cannot carry one: functions, enum cases, typealiases.
  private var misplaced: [MisplacedAnnotation] = []
  /// How deeply types, `#if` blocks and type arguments are nested at the current token.
  private var nesting = 0
  private var beyondLimits: [Diagnostic] = []
  /// The functions annotated `@DatabaseFunction`, wherever they are.
  private var databaseFunctions: [DatabaseFunctionDeclaration] = []
  /// What the generator cannot make SQL functions of: errors in any file (see `beyondLimits`).
  var functionErrors: [Diagnostic] = []

  /// Deeper nesting is reported instead of parsed, so that no input can exhaust the stack. Real
  /// code stays far below it.
  static let maximumNesting = 32

  static func parse(_ source: String, path: String) -> SourceFileDeclarations {
    var parser = SwiftParser(lexer: SwiftLexer.lex(source, path: path), path: path)
    return parser.parseFile()
  }

  private init(lexer: SwiftLexer, path: String) {
    self.lexer = lexer
    self.tokens = lexer.tokens
    self.path = path
    self.diagnostics = lexer.diagnostics
    var firstTokenColumn: [Int: Int] = [:]
    for token in lexer.tokens where firstTokenColumn[token.line] == nil {
      firstTokenColumn[token.line] = token.column
    }
    self.firstTokenColumn = firstTokenColumn
    var comments: [Int: SwiftComment] = [:]
    for comment in lexer.comments where comment.isLineComment {
      comments[comment.endLine] = comment
    }
    self.commentsByEndLine = comments
  }

  // MARK: Files and bodies

  private mutating func parseFile() -> SourceFileDeclarations {
    var members = Members()
    parseMembers(into: &members, scope: [], isConditional: false, closer: nil)
    return SourceFileDeclarations(
      path: path, types: members.types, typealiases: members.typealiases,
      misplacedAnnotations: misplaced, unattachedAnnotations: unattachedAnnotations(),
      diagnostics: diagnostics, beyondLimits: lexer.beyondLimits + beyondLimits + functionErrors, functions: declaredFunctions(),
      databaseFunctions: databaseFunctions)
  }

  /// The SQL functions the file writes in Swift: `ScalarFunction("name")` and
  /// `AggregateFunction("name")` (also `Strata.`-qualified, with generic arguments), wherever
  /// they are, so that migrations calling them can be checked.
  private func declaredFunctions() -> [AppFunction] {
    var functions: [AppFunction] = []
    for (index, token) in tokens.enumerated() where token.kind == .identifier {
      let name = lexer.text(of: token)
      guard name == "ScalarFunction" || name == "AggregateFunction" else { continue }
      var next = index + 1
      if next < tokens.count, tokens[next].kind == .punctuation, lexer.text(of: tokens[next]) == "<" {
        var depth = 0
        while next < tokens.count {
          let text = lexer.text(of: tokens[next])
          if text == "<" { depth += 1 } else if text == ">" { depth -= 1 }
          next += 1
          if depth == 0 { break }
        }
      }
      guard next + 1 < tokens.count, lexer.text(of: tokens[next]) == "(", tokens[next + 1].kind == .string,
        let functionName = StringLiteralValue.value(of: lexer.text(of: tokens[next + 1]))
      else { continue }
      functions.append(
        AppFunction(
          name: functionName, isAggregate: name == "AggregateFunction",
          location: SourceLocation(path: path, line: token.line, column: token.column)))
    }
    return functions
  }

  /// Annotation comments that are not directly above a declaration: separated from it by a
  /// blank line, trailing code, or above nothing.
  private func unattachedAnnotations() -> [Annotation] {
    var scratch = Diagnostics()
    return lexer.comments.compactMap { comment in
      guard comment.isLineComment, !attachedCommentLines.contains(comment.line) else { return nil }
      return AnnotationParser.parse(comment, path: path, diagnostics: &scratch)
    }
  }

  /// What a body declares.
  private struct Members {
    var types: [TypeDeclaration] = []
    var properties: [PropertyDeclaration] = []
    var cases: [EnumCase] = []
    var typealiases: [String: TypeSyntax] = [:]
    var unread: [UnreadMember] = []
  }

  /// Parses declarations until `closer` (`}`, or an `#if` clause keyword) or the end of file.
  private mutating func parseMembers(
    into members: inout Members, scope: [String], isConditional: Bool, closer: Set<String>?
  ) {
    while !atEnd {
      if let closer, closer.contains(currentText) { return }
      if closer == nil, isPunctuation("}") {
        // A stray brace at the top level: skip it rather than stop reading the file.
        advance()
        continue
      }
      parseMember(into: &members, scope: scope, isConditional: isConditional)
    }
  }

  private mutating func parseMember(
    into members: inout Members, scope: [String], isConditional: Bool
  ) {
    let start = current
    if isPunctuation(";") {
      advance()
      return
    }
    if current.kind == .pound {
      parsePoundDirective(into: &members, scope: scope, isConditional: isConditional)
      return
    }
    let annotations = annotationsAbove(start)
    let attributes = parseAttributes()
    let modifiers = parseModifiers()
    let text = currentText

    switch text {
    case "struct", "enum", "actor", "protocol", "extension":
      if let type = parseType(
        kind: TypeDeclaration.Kind(rawValue: text)!, annotations: annotations,
        accessLevel: modifiers.accessLevel, scope: scope, isConditional: isConditional)
      {
        members.types.append(contentsOf: type)
      }
    case "class" where !isDeclarationKeyword(peekText(1)):
      if let type = parseType(
        kind: .class, annotations: annotations, accessLevel: modifiers.accessLevel,
        scope: scope, isConditional: isConditional)
      {
        members.types.append(contentsOf: type)
      }
    case _ where (text == "let" || text == "var") && annotations.contains { $0.name == DatabaseFunctionDeclaration.annotation }:
      if let function = parseDatabaseFunctionProperty(annotations: annotations, modifiers: modifiers, scope: scope) {
        databaseFunctions.append(function)
      }
    case "let", "var":
      members.properties += parseProperties(
        annotations: annotations, attributes: attributes, modifiers: modifiers,
        isConditional: isConditional)
    case "case":
      recordMisplaced(annotations, on: "an enum case")
      members.cases += parseEnumCases()
    case "typealias":
      recordMisplaced(annotations, on: "a typealias")
      if let (name, type) = parseTypealias() { members.typealiases[name] = type }
    case "func" where annotations.contains { $0.name == DatabaseFunctionDeclaration.annotation }:
      if let function = parseDatabaseFunction(annotations: annotations, modifiers: modifiers, scope: scope) {
        databaseFunctions.append(function)
      }
    case "func", "init", "deinit", "subscript", "macro":
      recordMisplaced(annotations, on: Self.functionLikeDescriptions[text] ?? text)
      advance()
      skipFunctionLike()
    case "import":
      skipToLineEnd()
    case "associatedtype", "operator", "precedencegroup":
      skipStatement()
    case "class":
      // `class func`, `class var`: a modifier.
      advance()
      parseMemberAfterClassModifier(
        into: &members, annotations: annotations, attributes: attributes,
        modifiers: modifiers, isConditional: isConditional)
    default:
      recordMisplaced(annotations, on: "a statement")
      if scope.isEmpty {
        skipStatement()
      } else {
        members.unread.append(UnreadMember(reason: "a declaration the generator does not understand", location: location(of: start)))
        skipStatement()
      }
    }
    if current.start == start.start, !atEnd {
      advance()
    }
  }

  private mutating func parseMemberAfterClassModifier(
    into members: inout Members, annotations: [Annotation], attributes: [String],
    modifiers: Modifiers, isConditional: Bool
  ) {
    var modifiers = modifiers
    modifiers.isStatic = true
    switch currentText {
    case "let", "var":
      members.properties += parseProperties(
        annotations: annotations, attributes: attributes, modifiers: modifiers,
        isConditional: isConditional)
    default:
      recordMisplaced(annotations, on: "a class member")
      if isDeclarationKeyword(currentText) { advance() }
      skipFunctionLike()
    }
  }

  private static let functionLikeDescriptions = [
    "func": "a function", "init": "an initializer", "deinit": "a deinitializer", "subscript": "a subscript",
    "macro": "a macro",
  ]

  private mutating func recordMisplaced(_ annotations: [Annotation], on declaration: String) {
    misplaced += annotations.map { MisplacedAnnotation(annotation: $0, declaration: declaration) }
  }

  // MARK: Types

  private mutating func parseType(
    kind: TypeDeclaration.Kind, annotations: [Annotation],
    accessLevel: AccessLevel?, scope: [String], isConditional: Bool
  ) -> [TypeDeclaration]? {
    advance()
    let nameToken = current
    var name: String
    if kind == .extension {
      guard let extended = parseTypeSyntax() else {
        skipStatement()
        return nil
      }
      name = extended.text
    } else {
      guard isIdentifier else {
        skipStatement()
        return nil
      }
      name = identifierText(current)
      advance()
    }
    var isGeneric = false
    if isPunctuation("<") {
      isGeneric = true
      skipAngleBrackets()
    }
    var inheritance: [TypeSyntax] = []
    if isPunctuation(":") {
      advance()
      while !atEnd {
        if let type = parseTypeSyntax() { inheritance.append(type) } else { break }
        if isPunctuation(",") { advance() } else { break }
      }
    }
    // A `where` clause and anything else up to the body.
    while !atEnd, !isPunctuation("{"), !isPunctuation("}") { skipBalancedToken() }
    guard isPunctuation("{") else { return nil }
    guard enterNesting(at: nameToken) else {
      skipBalancedToken()
      return nil
    }
    defer { nesting -= 1 }
    advance()

    var members = Members()
    parseMembers(into: &members, scope: scope + [name], isConditional: false, closer: ["}"])
    if isPunctuation("}") { advance() }

    let declaration = TypeDeclaration(
      kind: kind, name: name, scope: scope, location: location(of: nameToken),
      accessLevel: accessLevel, isGeneric: isGeneric, inheritance: inheritance,
      annotations: annotations, properties: members.properties, cases: members.cases,
      typealiases: members.typealiases, unread: members.unread, isConditional: isConditional)
    return [declaration] + members.types
  }

  private mutating func parseEnumCases() -> [EnumCase] {
    advance()
    var cases: [EnumCase] = []
    while isIdentifier {
      let nameToken = current
      advance()
      // Associated values: such an enum has no raw type, so it is never a column, but a
      // `Selection` enum stores each case's value in columns of its own.
      let associatedValues = isPunctuation("(") ? parseAssociatedValues() : nil
      var rawValue: ExpressionValue?
      if isPunctuation("=") {
        advance()
        rawValue = parseExpression(stopAtComma: true)?.value
      }
      cases.append(
        EnumCase(
          name: identifierText(nameToken), rawValue: rawValue, associatedValues: associatedValues,
          location: location(of: nameToken)))
      guard isPunctuation(",") else { break }
      advance()
    }
    return cases
  }

  /// `(URL)`, `(startDate: Date, _ end: Date)`: the values of a case, through the closing
  /// parenthesis. A default value is skipped; a value whose type cannot be read has none.
  private mutating func parseAssociatedValues() -> [EnumCase.AssociatedValue] {
    advance()
    var values: [EnumCase.AssociatedValue] = []
    while !atEnd, !isPunctuation(")"), !isPunctuation("}") {
      var label: String?
      if isIdentifier, peekText(1) == ":" {
        label = identifierText(current)
        advance()
        advance()
      } else if isIdentifier, position + 1 < tokens.count,
        [.identifier, .escapedIdentifier].contains(tokens[position + 1].kind), peekText(2) == ":"
      {
        // `_ name: Type`: the first name is the label, `_` for none.
        label = currentText == "_" ? nil : identifierText(current)
        advance()
        advance()
        advance()
      }
      values.append(EnumCase.AssociatedValue(label: label, type: parseTypeSyntax()))
      // A default value, or what could not be read, up to the next comma.
      while !atEnd, !isPunctuation(","), !isPunctuation(")"), !isPunctuation("}") { skipBalancedToken() }
      if isPunctuation(",") { advance() }
    }
    if isPunctuation(")") { advance() }
    return values
  }

  private mutating func parseTypealias() -> (String, TypeSyntax)? {
    advance()
    guard isIdentifier else {
      skipStatement()
      return nil
    }
    let name = identifierText(current)
    advance()
    if isPunctuation("<") {
      skipAngleBrackets()
      skipStatement()
      return nil
    }
    guard isPunctuation("=") else {
      skipStatement()
      return nil
    }
    advance()
    guard let type = parseTypeSyntax() else {
      skipStatement()
      return nil
    }
    return (name, type)
  }

  // MARK: Properties

  private mutating func parseProperties(
    annotations: [Annotation], attributes: [String], modifiers: Modifiers,
    isConditional: Bool
  ) -> [PropertyDeclaration] {
    let isLet = currentText == "let"
    advance()
    var properties: [PropertyDeclaration] = []
    var untypedNames: [Int] = []
    while !atEnd {
      guard isIdentifier else {
        // A tuple pattern or something else: skip the whole declaration.
        let location = location(of: current)
        skipStatement()
        return properties + [
          PropertyDeclaration(
            name: "", location: location, isLet: isLet, isStatic: modifiers.isStatic,
            isLazy: modifiers.isLazy, accessLevel: modifiers.accessLevel, attributes: attributes,
            annotations: annotations, type: .unsupported("pattern"), initializer: nil,
            storage: .stored, isConditional: isConditional)
        ]
      }
      let nameToken = current
      advance()
      var type: TypeSyntax?
      if isPunctuation(":") {
        advance()
        type = parseTypeSyntax() ?? .unsupported("?")
      }
      var initializer: Expression?
      if isPunctuation("=") {
        advance()
        initializer = parseExpression(stopAtComma: true)
      }
      var storage = PropertyDeclaration.Storage.stored
      if isPunctuation("{") {
        storage = accessorBlockIsObservers() ? .stored : .computed
        skipBalancedToken()
      }
      let property = PropertyDeclaration(
        name: identifierText(nameToken), location: location(of: nameToken), isLet: isLet,
        isStatic: modifiers.isStatic, isLazy: modifiers.isLazy, accessLevel: modifiers.accessLevel,
        attributes: attributes, annotations: annotations, type: type, initializer: initializer,
        storage: storage, isConditional: isConditional)
      if type != nil {
        for index in untypedNames { properties[index].type = type }
        untypedNames.removeAll()
      } else if initializer == nil {
        untypedNames.append(properties.count)
      }
      properties.append(property)
      guard isPunctuation(",") else { break }
      advance()
    }
    return properties
  }

  /// Whether the `{` at the current token opens `willSet`/`didSet` observers rather than a
  /// getter.
  private func accessorBlockIsObservers() -> Bool {
    var offset = 1
    while position + offset < tokens.count {
      let token = tokens[position + offset]
      let text = lexer.text(of: token)
      if token.kind == .punctuation, text == "@" {
        offset += 2
        continue
      }
      return text == "willSet" || text == "didSet"
    }
    return false
  }

  // MARK: Expressions

  /// Reads an initializer expression, up to a comma (when `stopAtComma`), a semicolon, a `}`,
  /// or the end of its line where the expression cannot continue.
  mutating func parseExpression(stopAtComma: Bool) -> Expression? {
    let first = position
    let startToken = current
    while !atEnd {
      if isPunctuation(";") || isPunctuation("}") || isPunctuation(")") || isPunctuation("]") { break }
      if stopAtComma, isPunctuation(",") { break }
      if position > first, current.followsNewline, !continuesExpression() { break }
      if isPunctuation("{"), position > first, accessorBlockIsObservers() { break }
      skipBalancedToken()
    }
    guard position > first else { return nil }
    let range = tokens[first..<position]
    return Expression(text: tokenText(range), value: classify(range), location: location(of: startToken))
  }

  /// The tokens' text on one line, with one space wherever the source had spaces, line breaks
  /// or comments: the expression as generated code repeats it, where a comment copied along
  /// could swallow the rest of a line.
  private func tokenText(_ range: ArraySlice<SwiftToken>) -> String {
    var text = ""
    for token in range {
      if !text.isEmpty, token.followsSpace { text += " " }
      text += lexer.text(of: token)
    }
    return text
  }

  /// Whether the current token, first on its line, continues the expression before it.
  private func continuesExpression() -> Bool {
    let previous = tokens[position - 1]
    if previous.kind == .operatorSymbol { return true }
    if previous.kind == .punctuation, ["=", ".", ",", "(", "[", ":", "->"].contains(lexer.text(of: previous)) {
      return true
    }
    if current.kind == .operatorSymbol { return true }
    if current.kind == .punctuation, [".", "?"].contains(currentText) { return true }
    return false
  }

  private func classify(_ range: ArraySlice<SwiftToken>) -> ExpressionValue {
    let texts = range.map { lexer.text(of: $0) }
    let kinds = range.map(\.kind)
    switch (kinds.count, kinds.first) {
    case (1, .string?):
      return StringLiteralValue.value(of: texts[0]).map(ExpressionValue.string) ?? .other
    case (1, .integer?):
      return .integer(texts[0])
    case (1, .float?):
      return .float(texts[0])
    case (2, .operatorSymbol?) where texts[0] == "-" && kinds[1] == .integer:
      return .integer("-" + texts[1])
    case (2, .operatorSymbol?) where texts[0] == "-" && kinds[1] == .float:
      return .float("-" + texts[1])
    case (1, .identifier?) where texts[0] == "true" || texts[0] == "false":
      return .bool(texts[0] == "true")
    case (1, .identifier?) where texts[0] == "nil":
      return .nil
    case (2, .punctuation?) where texts == ["[", "]"]:
      return .emptyArray
    case (3, .punctuation?) where texts == ["[", ":", "]"]:
      return .emptyDictionary
    case (2, .punctuation?) where texts[0] == "." && kinds[1] == .identifier:
      return .member(type: nil, name: texts[1])
    default:
      break
    }
    if let enumCase = classifyEnumCase(range) { return enumCase }
    // `Type.case` and `Type(…)`, where `Type` may be dotted.
    var names: [String] = []
    var index = 0
    while index < texts.count, kinds[index] == .identifier || kinds[index] == .escapedIdentifier {
      names.append(kinds[index] == .escapedIdentifier ? String(texts[index].dropFirst().dropLast()) : texts[index])
      index += 1
      guard index < texts.count, texts[index] == "." else { break }
      index += 1
    }
    if index == texts.count, names.count >= 2 {
      return .member(type: names.dropLast().joined(separator: "."), name: names.last!)
    }
    if !names.isEmpty, index < texts.count, texts[index] == "(", texts.last == ")",
      names.count == index / 2 + 1
    {
      return .call(type: names.joined(separator: "."))
    }
    return .other
  }

  /// `.name(literal)`, `Type.name(literal)` or either with a label (`.lost(reason: "")`): an
  /// enum case that holds a literal value; nil for anything else.
  private func classifyEnumCase(_ range: ArraySlice<SwiftToken>) -> ExpressionValue? {
    let texts = range.map { lexer.text(of: $0) }
    let kinds = range.map(\.kind)
    guard let open = texts.firstIndex(of: "("), texts.last == ")", open >= 2, texts[open - 2] == "." else { return nil }
    // The part before the parenthesis: `.name` or `A.B.name`.
    var names: [String] = []
    for index in 0..<open {
      let isName = index % 2 == (texts[0] == "." ? 1 : 0)
      if isName {
        guard kinds[index] == .identifier || kinds[index] == .escapedIdentifier else { return nil }
        names.append(kinds[index] == .escapedIdentifier ? String(texts[index].dropFirst().dropLast()) : texts[index])
      } else if texts[index] != "." {
        return nil
      }
    }
    guard let name = names.last else { return nil }
    var start = open + 1
    if start + 1 < texts.count - 1, kinds[start] == .identifier, texts[start + 1] == ":" { start += 2 }
    let inner = texts.count - 1 > start ? classify(range[range.startIndex + start..<range.startIndex + texts.count - 1]) : .other
    switch inner {
    case .string, .integer, .float, .bool: return .enumCase(type: names.count > 1 ? names.dropLast().joined(separator: ".") : nil, name: name, value: inner)
    default: return nil
    }
  }

  // MARK: Type syntax

  /// Parses a type, or returns nil without consuming anything when there is none.
  mutating func parseTypeSyntax() -> TypeSyntax? {
    let start = current
    guard enterNesting(at: start) else {
      // Too deep: give up on the rest of the line.
      let line = start.line
      while !atEnd, current.line == line, !isPunctuation("{"), !isPunctuation("}") { advance() }
      return .unsupported("…")
    }
    defer { nesting -= 1 }
    guard var type = parseTypeAtom() else { return nil }
    while !atEnd, !current.followsSpace || (isPunctuation("?") || isPunctuation("!")) && !current.followsNewline {
      if isPunctuation("?"), !current.followsSpace {
        advance()
        type = .optional(type)
      } else if isPunctuation("!"), !current.followsSpace {
        advance()
        type = .implicitlyUnwrapped(type)
      } else if isPunctuation("."), ["Type", "Protocol"].contains(peekText(1)) {
        advance()
        advance()
        type = .unsupported(type.text + ".Type")
      } else {
        break
      }
    }
    if current.kind == .operatorSymbol, currentText == "&" {
      var text = type.text
      while current.kind == .operatorSymbol, currentText == "&" {
        advance()
        if let next = parseTypeAtom() { text += " & " + next.text }
      }
      type = .unsupported(text)
    }
    return type
  }

  private mutating func parseTypeAtom() -> TypeSyntax? {
    if isPunctuation("@") {
      advance()
      if isIdentifier { advance() }
      if isPunctuation("("), !current.followsSpace { skipBalancedToken() }
      return parseTypeSyntax().map { .unsupported("@… " + $0.text) }
    }
    if isIdentifier, ["some", "any", "inout", "borrowing", "consuming", "sending", "isolated"].contains(currentText),
      position + 1 < tokens.count, tokens[position + 1].kind == .identifier || lexer.text(of: tokens[position + 1]) == "("
    {
      let keyword = currentText
      advance()
      return parseTypeSyntax().map { .unsupported(keyword + " " + $0.text) }
    }
    if isPunctuation("(") {
      let start = current.start
      skipBalancedToken()
      var end = tokens[position - 1].end
      if ["async", "throws", "rethrows"].contains(currentText) || isPunctuation("->") {
        while ["async", "throws", "rethrows"].contains(currentText) {
          advance()
          if isPunctuation("(") { skipBalancedToken() }
        }
        if isPunctuation("->") {
          advance()
          _ = parseTypeSyntax()
        }
        end = tokens[position - 1].end
      }
      let text = String(decoding: lexer.bytes[start..<end], as: UTF8.self)
      return .unsupported(text)
    }
    if isPunctuation("[") {
      advance()
      guard let element = parseTypeSyntax() else {
        skipUntilClosing("]")
        return .unsupported("[?]")
      }
      if isPunctuation(":") {
        advance()
        let value = parseTypeSyntax() ?? .unsupported("?")
        if isPunctuation("]") { advance() }
        return .dictionary(element, value)
      }
      if isPunctuation("]") { advance() }
      return .array(element)
    }
    guard isIdentifier else { return nil }
    var components: [TypeSyntax.Component] = []
    while isIdentifier {
      let name = identifierText(current)
      advance()
      var arguments: [TypeSyntax] = []
      if isPunctuation("<"), !current.followsSpace {
        advance()
        while !atEnd, !isPunctuation(">") {
          guard let argument = parseTypeSyntax() else {
            skipUntilClosing(">")
            return .unsupported(name + "<?>")
          }
          arguments.append(argument)
          if isPunctuation(",") { advance() } else { break }
        }
        if isPunctuation(">") { advance() }
      }
      components.append(TypeSyntax.Component(name: name, arguments: arguments))
      guard isPunctuation("."), !current.followsSpace, position + 1 < tokens.count,
        tokens[position + 1].kind == .identifier || tokens[position + 1].kind == .escapedIdentifier,
        !["Type", "Protocol", "self"].contains(peekText(1))
      else { break }
      advance()
    }
    return TypeSyntax.normalized(components)
  }

  // MARK: Attributes, modifiers, annotations

  /// Attribute names (`@MainActor`, `@Published`), with their arguments skipped.
  private mutating func parseAttributes() -> [String] {
    var names: [String] = []
    while isPunctuation("@") {
      advance()
      guard isIdentifier else { break }
      var name = identifierText(current)
      advance()
      while isPunctuation("."), position + 1 < tokens.count, tokens[position + 1].kind == .identifier {
        advance()
        name += "." + identifierText(current)
        advance()
      }
      if isPunctuation("<"), !current.followsSpace { skipAngleBrackets() }
      if isPunctuation("("), !current.followsSpace { skipBalancedToken() }
      names.append(name)
    }
    return names
  }

  struct Modifiers {
    var accessLevel: AccessLevel?
    var isStatic = false
    var isLazy = false
  }

  private static let modifierKeywords: Set<String> = [
    "public", "private", "fileprivate", "internal", "package", "open", "static", "final", "lazy",
    "weak", "unowned", "mutating", "nonmutating", "override", "required", "convenience",
    "dynamic", "optional", "indirect", "nonisolated", "isolated", "distributed", "consuming",
    "borrowing", "__consuming", "prefix", "postfix", "infix",
  ]

  private mutating func parseModifiers() -> Modifiers {
    var modifiers = Modifiers()
    while isIdentifier, Self.modifierKeywords.contains(currentText) {
      let text = currentText
      // `open`, `optional` and others are also ordinary names; they are modifiers only when a
      // declaration follows.
      guard isDeclarationStart(peekText(1)) || Self.modifierKeywords.contains(peekText(1)) || peekText(1) == "("
      else { break }
      advance()
      var hasArgument = false
      if isPunctuation("("), !current.followsSpace {
        hasArgument = true
        skipBalancedToken()
      }
      if let level = AccessLevel(rawValue: text), !hasArgument { modifiers.accessLevel = level }
      if text == "static" { modifiers.isStatic = true }
      if text == "lazy" { modifiers.isLazy = true }
    }
    return modifiers
  }

  private func isDeclarationStart(_ text: String) -> Bool {
    isDeclarationKeyword(text) || ["struct", "class", "enum", "actor", "protocol", "extension", "case", "typealias", "import", "associatedtype"].contains(text)
  }

  private func isDeclarationKeyword(_ text: String) -> Bool {
    ["func", "var", "let", "init", "deinit", "subscript", "macro"].contains(text)
      || Self.modifierKeywords.contains(text)
  }

  /// The annotation comments on the lines directly above `token`.
  private mutating func annotationsAbove(_ token: SwiftToken) -> [Annotation] {
    // After `{ let id: Int; var n = 0 }` the next line's comment belongs to what follows, not to
    // a declaration that shares a line with others.
    guard firstTokenColumn[token.line] == token.column else { return [] }
    var collected: [SwiftComment] = []
    var line = token.line - 1
    while let comment = commentsByEndLine[line], firstTokenColumn[line] == nil || firstTokenColumn[line]! > comment.column {
      collected.append(comment)
      line -= 1
    }
    var annotations: [Annotation] = []
    for comment in collected.reversed() {
      attachedCommentLines.insert(comment.line)
      if let annotation = AnnotationParser.parse(comment, path: path, diagnostics: &diagnostics) {
        annotations.append(annotation)
      }
    }
    return annotations
  }

  // MARK: #if

  private mutating func parsePoundDirective(
    into members: inout Members, scope: [String], isConditional: Bool
  ) {
    let text = currentText
    switch text {
    case "#if":
      let opening = current
      advance()
      skipToLineEnd()
      guard enterNesting(at: opening) else {
        skipConditionalBlock()
        return
      }
      defer { nesting -= 1 }
      while !atEnd {
        var branch = Members()
        parseMembers(into: &branch, scope: scope, isConditional: true, closer: ["#elseif", "#else", "#endif"])
        members.types += branch.types
        members.properties += branch.properties
        members.cases += branch.cases
        members.typealiases.merge(branch.typealiases) { first, _ in first }
        members.unread += branch.unread
        if currentText == "#endif" {
          advance()
          return
        }
        if atEnd { break }
        advance()
        skipToLineEnd()
      }
      diagnostics.error("#if without #endif", at: location(of: current))
    case "#elseif", "#else", "#endif":
      // Unbalanced: skip it.
      advance()
      skipToLineEnd()
    default:
      // `#Preview { … }`, `#warning("…")`, `#sourceLocation(…)`: skip with arguments and body.
      advance()
      if isPunctuation("("), !current.followsSpace { skipBalancedToken() }
      if isPunctuation("{") { skipBalancedToken() }
    }
  }

  // MARK: Nesting

  /// Enters one more level of nesting, or records (once per file) that the input nests too
  /// deeply to be read.
  private mutating func enterNesting(at token: SwiftToken) -> Bool {
    guard nesting < Self.maximumNesting else {
      if beyondLimits.isEmpty {
        beyondLimits.append(
          Diagnostic(
            .error,
            "nesting too deep: types, #if blocks and type arguments nest more than \(Self.maximumNesting) levels here, and Strata stops reading them",
            at: location(of: token)))
      }
      return false
    }
    nesting += 1
    return true
  }

  /// Skips an `#if` block whose opening line was read, through its `#endif`.
  private mutating func skipConditionalBlock() {
    var depth = 1
    while !atEnd {
      if current.kind == .pound {
        if currentText == "#if" { depth += 1 }
        if currentText == "#endif" {
          depth -= 1
          if depth == 0 {
            advance()
            return
          }
        }
      }
      advance()
    }
  }

  // MARK: Skipping

  /// Skips a function, initializer or subscript: its signature and, if it has one, its body.
  mutating func skipFunctionLike() {
    while !atEnd {
      if isPunctuation("{") {
        skipBalancedToken()
        return
      }
      if isPunctuation("}") { return }
      if current.followsNewline, isDeclarationStart(currentText) || isPunctuation("@") || current.kind == .pound {
        return
      }
      skipBalancedToken()
    }
  }

  /// Skips a statement: up to a `;`, or a line break where the statement cannot continue.
  private mutating func skipStatement() {
    let first = position
    while !atEnd {
      if isPunctuation(";") {
        advance()
        return
      }
      if isPunctuation("}") { return }
      if position > first, current.followsNewline, !continuesExpression(), !isPunctuation("{") {
        return
      }
      skipBalancedToken()
    }
  }

  private mutating func skipToLineEnd() {
    let line = tokens[max(position - 1, 0)].line
    while !atEnd, current.line == line, !current.followsNewline || position == 0 { advance() }
  }

  /// Skips one token, or a whole bracketed group when the token opens one.
  mutating func skipBalancedToken() {
    guard current.kind == .punctuation else {
      advance()
      return
    }
    switch currentText {
    case "{", "(", "[": skipGroup()
    default: advance()
    }
  }

  /// Skips a bracketed group and every group inside it, without recursion, so that no depth
  /// of nesting can exhaust the stack. A mismatched closer ends the innermost group and is left
  /// to the enclosing one.
  private mutating func skipGroup() {
    var openers = [current]
    advance()
    while !atEnd {
      guard current.kind == .punctuation else {
        advance()
        continue
      }
      switch currentText {
      case "{", "(", "[":
        openers.append(current)
        advance()
      case "}", ")", "]":
        let innermost = openers.removeLast()
        if currentText == Self.closer[lexer.text(of: innermost)] {
          advance()
        } else {
          diagnostics.error("unbalanced '\(lexer.text(of: innermost))'", at: location(of: innermost))
        }
        if openers.isEmpty { return }
      default:
        advance()
      }
    }
    if let innermost = openers.last {
      diagnostics.error("unbalanced '\(lexer.text(of: innermost))'", at: location(of: innermost))
    }
  }

  private static let closer = ["{": "}", "(": ")", "[": "]"]

  private mutating func skipAngleBrackets() {
    var depth = 0
    while !atEnd {
      if isPunctuation("<") { depth += 1 }
      if isPunctuation(">") {
        depth -= 1
        if depth == 0 {
          advance()
          return
        }
      }
      if isPunctuation("{") || isPunctuation("}") { return }
      skipBalancedToken()
    }
  }

  private mutating func skipUntilClosing(_ closer: String) {
    while !atEnd, !isPunctuation(closer), !isPunctuation("{"), !isPunctuation("}") { skipBalancedToken() }
    if isPunctuation(closer) { advance() }
  }

  // MARK: Tokens

  var current: SwiftToken { tokens[position] }
  var currentText: String { lexer.text(of: current) }
  var atEnd: Bool { current.kind == .endOfFile }

  var isIdentifier: Bool {
    current.kind == .identifier || current.kind == .escapedIdentifier
  }

  func identifierText(_ token: SwiftToken) -> String {
    let text = lexer.text(of: token)
    return token.kind == .escapedIdentifier ? String(text.dropFirst().dropLast()) : text
  }

  func isPunctuation(_ text: String) -> Bool {
    current.kind == .punctuation && currentText == text
  }

  func peekText(_ offset: Int) -> String {
    position + offset < tokens.count ? lexer.text(of: tokens[position + offset]) : ""
  }

  mutating func advance() {
    if position < tokens.count - 1 { position += 1 }
  }

  func location(of token: SwiftToken) -> SourceLocation {
    SourceLocation(path: path, line: token.line, column: token.column)
  }
}
