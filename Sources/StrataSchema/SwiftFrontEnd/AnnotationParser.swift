/// Reads an annotation comment: `// @Column("due_date", as: JSONRepresentation<[String]>.self)`.
///
/// Only the names Strata knows are annotations, so `/// @see the design doc` stays prose. In a
/// `//` comment a name one or two letters away from a known one (`@Colum`, `@Indexed`) is read
/// too, so a misspelling is an error instead of a silently ignored line. In a `///` doc comment
/// a known name is an annotation only when nothing but its arguments follows it (`/// @Unique`,
/// not `/// @Index is what makes this fast`). The annotation is lexed like Swift, so its
/// arguments are string literals, `true` or `false`, `.member`, or `Type.self`. Whether the name
/// and arguments suit the annotated declaration is decided later, where it is known.
enum AnnotationParser {
  static func parse(
    _ comment: SwiftComment, path: String, diagnostics: inout Diagnostics
  ) -> Annotation? {
    var text = Substring(comment.text)
    var column = comment.column
    let isDocComment = text.hasPrefix("///")
    for marker in ["///", "//"] where text.hasPrefix(marker) {
      text = text.dropFirst(marker.count)
      column += marker.count
      break
    }
    while text.first == " " || text.first == "\t" {
      text = text.dropFirst()
      column += 1
    }
    guard text.first == "@", let next = text.dropFirst().first, next.isLetter else { return nil }
    let name = text.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    let rest = text.dropFirst(1 + name.count)
    if Annotations.byName[String(name)] != nil {
      if isDocComment, !(rest.first == "(" || rest.allSatisfy { $0 == " " || $0 == "\t" }) { return nil }
    } else if isDocComment || Annotations.nearestName(to: name) == nil {
      return nil
    }
    let location = SourceLocation(path: path, line: comment.line, column: column)

    let lexer = SwiftLexer.lex(String(text), path: path)
    var reader = Reader(lexer: lexer, base: location)
    guard let annotation = reader.annotation() else {
      diagnostics.error(
        "malformed annotation '\(text.trimmingTrailingSpaces)': expected @Name or @Name(arguments)",
        at: reader.errorLocation ?? location)
      return nil
    }
    return annotation
  }

  private struct Reader {
    let lexer: SwiftLexer
    let base: SourceLocation
    var position = 0
    var errorLocation: SourceLocation?

    init(lexer: SwiftLexer, base: SourceLocation) {
      self.lexer = lexer
      self.base = base
    }

    var tokens: [SwiftToken] { lexer.tokens }
    var current: SwiftToken { tokens[position] }
    var text: String { lexer.text(of: current) }

    func location(of token: SwiftToken) -> SourceLocation {
      SourceLocation(path: base.path, line: base.line, column: base.column + token.column - 1)
    }

    mutating func advance() {
      if position < tokens.count - 1 { position += 1 }
    }

    mutating func fail() -> Annotation? {
      errorLocation = location(of: current)
      return nil
    }

    mutating func annotation() -> Annotation? {
      guard text == "@" else { return fail() }
      advance()
      guard current.kind == .identifier else { return fail() }
      let name = text
      advance()
      var arguments: [Annotation.Argument] = []
      if text == "(", current.kind == .punctuation {
        advance()
        while text != ")" || current.kind != .punctuation {
          guard let argument = argument() else { return fail() }
          arguments.append(argument)
          if text == ",", current.kind == .punctuation {
            advance()
          } else if text != ")" {
            return fail()
          }
        }
        advance()
      }
      guard current.kind == .endOfFile else { return fail() }
      return Annotation(name: name, arguments: arguments, location: base)
    }

    mutating func argument() -> Annotation.Argument? {
      let start = current
      var label: String?
      if current.kind == .identifier, position + 1 < tokens.count,
        lexer.text(of: tokens[position + 1]) == ":"
      {
        label = text
        advance()
        advance()
      }
      guard let value = value() else { return nil }
      return Annotation.Argument(label: label, value: value, location: location(of: start))
    }

    mutating func value() -> Annotation.Value? {
      switch current.kind {
      case .string:
        guard let string = StringLiteralValue.value(of: text) else { return nil }
        advance()
        return .string(string)
      case .integer, .float:
        let value = text
        advance()
        return .number(value)
      case .identifier where text == "true" || text == "false":
        let value = text == "true"
        advance()
        return .bool(value)
      case .punctuation where text == ".":
        advance()
        guard current.kind == .identifier else { return nil }
        let name = text
        advance()
        return .member(name)
      case .identifier:
        return typeReference()
      case .punctuation where text == "[":
        return typeReference()
      default:
        return nil
      }
    }

    /// `Type.self`, read with the Swift parser's type grammar.
    mutating func typeReference() -> Annotation.Value? {
      let start = current.start
      var depth = 0
      var end = position
      while end < tokens.count - 1 {
        let token = tokens[end]
        let tokenText = lexer.text(of: token)
        if token.kind == .punctuation {
          if ["<", "[", "("].contains(tokenText) { depth += 1 }
          if [">", "]", ")"].contains(tokenText) {
            if depth == 0 { break }
            depth -= 1
          }
          if tokenText == ",", depth == 0 { break }
        }
        end += 1
      }
      let source = String(decoding: lexer.bytes[start..<tokens[end - 1].end], as: UTF8.self)
      guard source.hasSuffix(".self") else { return nil }
      let typeText = String(source.dropLast(".self".count))
      let declarations = SwiftParser.parse("typealias T = " + typeText, path: base.path)
      guard let type = declarations.typealiases["T"] else { return nil }
      position = end
      return .type(type)
    }
  }
}

extension Substring {
  fileprivate var trimmingTrailingSpaces: Substring {
    var text = self
    while text.last == " " || text.last == "\t" { text = text.dropLast() }
    return text
  }
}
