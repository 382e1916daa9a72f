import StrataSQL

import Foundation

/// Reads a schema file's text into a ``SchemaFile``, reporting every grammar error at its line
/// and column with what to write instead.
///
/// The text is lexed as Swift (comments, string literals and numbers have Swift's syntax); a
/// declaration with an error is skipped to its closing brace, so one mistake does not hide the
/// next. Nothing here can recurse on input, so no file can exhaust the stack.
struct SchemaFileParser {
  private let lexer: SwiftLexer
  private var position = 0
  private(set) var diagnostics = Diagnostics()

  static func parse(_ source: String, path: String) -> (file: SchemaFile, diagnostics: Diagnostics) {
    var parser = SchemaFileParser(lexer: SwiftLexer.lex(source, path: path))
    var declarations: [SchemaFile.Declaration] = []
    for diagnostic in parser.lexer.diagnostics.all {
      parser.diagnostics.error(diagnostic.message, at: diagnostic.location)
    }
    while parser.current.kind != .endOfFile {
      if let declaration = parser.declaration() {
        declarations.append(declaration)
      } else {
        parser.skipDeclaration()
      }
    }
    return (SchemaFile(path: path, declarations: declarations), parser.diagnostics)
  }

  private init(lexer: SwiftLexer) {
    self.lexer = lexer
  }

  // MARK: Tokens

  private var current: SwiftToken { lexer.tokens[position] }
  private var text: String { lexer.text(of: current) }
  private var location: SourceLocation { location(of: current) }

  private func location(of token: SwiftToken) -> SourceLocation {
    SourceLocation(path: lexer.path, line: token.line, column: token.column)
  }

  private mutating func advance() {
    if position < lexer.tokens.count - 1 { position += 1 }
  }

  private func isPunctuation(_ symbol: String) -> Bool {
    (current.kind == .punctuation || current.kind == .operatorSymbol) && text == symbol
  }

  private func isWord(_ word: String) -> Bool {
    current.kind == .identifier && text == word
  }

  /// Whether the current token starts a new line, ends the item, or ends the file.
  private var atItemEnd: Bool {
    current.kind == .endOfFile || current.followsNewline || isPunctuation(";") || isPunctuation("}")
  }

  /// Records an error at the current token; returns nil so callers can `return fail(…)`.
  private mutating func fail<T>(_ message: String) -> T? {
    let found = current.kind == .endOfFile ? "the end of the file" : "'\(text)'"
    diagnostics.error(message.replacingOccurrences(of: "%found", with: found), at: location)
    return nil
  }

  /// After an error: on to the token after the declaration's closing brace, or the next line
  /// that starts a declaration.
  private mutating func skipDeclaration() {
    var depth = 0
    let start = position
    while current.kind != .endOfFile {
      if isPunctuation("{") { depth += 1 }
      if isPunctuation("}") {
        depth -= 1
        if depth <= 0 {
          advance()
          return
        }
      }
      if depth == 0, position != start, current.followsNewline, Self.declarationWords.contains(text) { return }
      advance()
    }
  }

  /// After an error in a column or field: on to the next line, and at least one token on, so
  /// that a token no rule accepts cannot stop the parser.
  private mutating func skipItem(from start: Int) {
    if position == start { advance() }
    while !atItemEnd { advance() }
  }

  private static let declarationWords: Set<String> = ["table", "selection", "enum", "public", "package", "internal"]

  // MARK: Declarations

  private mutating func declaration() -> SchemaFile.Declaration? {
    var access: SchemaFile.Access?
    if current.kind == .identifier, let word = SchemaFile.Access(rawValue: text) {
      access = word
      advance()
    }
    switch (current.kind, text) {
    case (.identifier, "table"), (.identifier, "fts5"), (.identifier, "view"): return table(access: access).map { .table($0) }
    case (.identifier, "selection"): return selection(access: access).map { .selection($0) }
    case (.identifier, "enum"): return enumeration(access: access).map { .enumeration($0) }
    default: return fail("expected 'table', 'fts5', 'view', 'selection' or 'enum', found %found")
    }
  }

  private mutating func name(of what: String) -> SchemaFile.Name? {
    guard current.kind == .identifier, !Self.reservedNames.contains(text) else {
      return fail("expected the name of the \(what), found %found")
    }
    defer { advance() }
    return SchemaFile.Name(text: text, location: location)
  }

  /// Words that name nothing in Swift models.
  static let reservedNames: Set<String> = ["table", "fts5", "view", "selection", "enum", "self", "Self", "Type"]

  private mutating func string(after what: String) -> String? {
    guard current.kind == .string, let value = StringLiteralValue.value(of: text) else {
      return fail("\(what) takes a string literal such as \"name\", found %found")
    }
    advance()
    return value
  }

  private mutating func openBrace(_ what: String) -> Bool {
    guard isPunctuation("{") else {
      let _: Bool? = fail("expected '{' to open the \(what), found %found")
      return false
    }
    advance()
    return true
  }

  private mutating func table(access: SchemaFile.Access?) -> SchemaFile.Table? {
    let keyword = text
    let what = ["fts5": "full-text index", "view": "view"][keyword] ?? "table"
    advance()
    guard let name = name(of: what) else { return nil }
    var table = SchemaFile.Table(name: name, access: access, columns: [])
    var content: SchemaFile.Name?
    var tokenizer: String?
    var prefix: String?
    var select: String?
    while !isPunctuation("{") {
      switch (keyword, text) {
      case (_, "named"):
        advance()
        guard let value = string(after: "'named'") else { return nil }
        table.sqlName = value
      case ("table", "renamed"):
        advance()
        if isWord("from") { advance() }
        guard let value = string(after: "'renamed from'") else { return nil }
        table.previousName = value
      case ("table", "unmanaged"):
        advance()
        table.isUnmanaged = true
      case ("table", "synced"):
        advance()
        table.isSynced = true
      case ("fts5", "content"):
        advance()
        guard let value = self.name(of: "content table") else { return nil }
        content = value
      case ("fts5", "tokenize"):
        advance()
        guard let value = string(after: "'tokenize'") else { return nil }
        tokenizer = value
      case ("fts5", "prefix"):
        advance()
        guard let value = string(after: "'prefix'") else { return nil }
        prefix = value
      case ("view", "as"):
        advance()
        guard isWord("raw") else { return fail("a view's select is SQL, marked raw: as raw \"SELECT …\"; found %found") }
        advance()
        guard let value = string(after: "'as raw'") else { return nil }
        select = value
      default:
        let options = [
          "table": "'named \"…\"', 'renamed from \"…\"', 'unmanaged', 'synced'", "fts5": "'named \"…\"', 'content Table', 'tokenize \"…\"', 'prefix \"…\"'",
          "view": "'named \"…\"', 'as raw \"SELECT …\"'",
        ][keyword] ?? ""
        return fail("expected \(options) or '{' after the \(what)'s name, found %found")
      }
    }
    switch keyword {
    case "fts5":
      table.kind = .fullTextIndex(content: content, tokenizer: tokenizer, prefix: prefix)
      // The index's rows are keyed by their rowid, which the model reads.
      table.columns.append(
        SchemaFile.Column(
          name: SchemaFile.Name(text: "rowid", location: name.location),
          type: SchemaFile.ColumnType(swiftType: "Int", isJSON: false, isOptional: false, components: ["Int"])))
    case "view":
      guard let select else { return fail("a view needs its select: view \(name.text) as raw \"SELECT …\" { … }") }
      table.kind = .view(select: select)
    default:
      break
    }
    guard openBrace(what) else { return nil }
    while !isPunctuation("}") {
      if isPunctuation(";") {
        advance()
        continue
      }
      guard current.kind != .endOfFile else { return fail("table '\(name.text)' has no closing '}'") }
      let start = position
      if (isWord("index") || isWord("unique")), nextIs(.punctuation, "(") {
        if let index = tableIndex() { table.indexes.append(index) } else { skipItem(from: start) }
      } else if isWord("primary"), nextIs(.punctuation, "(") {
        let location = self.location
        advance()
        if let columns = columnList(), atItemEnd {
          table.constraints.append((.primaryKey(columns), location))
        } else {
          if atItemEnd { let _: Bool? = fail("expected the end of the key, found %found") }
          skipItem(from: start)
        }
      } else if isWord("trigger"), lexer.tokens[min(position + 1, lexer.tokens.count - 1)].kind == .string {
        let location = self.location
        advance()
        if let triggerName = string(after: "'trigger'"), expectRaw(after: "the trigger's name"), let sql = string(after: "'raw'"),
          atItemEnd
        {
          table.triggers.append((triggerName, sql, location))
        } else {
          skipItem(from: start)
        }
      } else if isWord("check"), nextIs(.identifier, "raw") {
        let location = self.location
        advance()
        advance()
        if let sql = string(after: "'check raw'"), atItemEnd {
          table.constraints.append((.check(sql), location))
        } else {
          skipItem(from: start)
        }
      } else if let column = column() {
        table.columns.append(column)
      } else {
        skipItem(from: start)
      }
    }
    advance()
    return table
  }

  /// Reads `raw`, which marks the SQL that follows; an error when it is missing.
  private mutating func expectRaw(after what: String) -> Bool {
    guard isWord("raw") else {
      let _: Bool? = fail("expected 'raw' and the SQL after \(what) (trigger \"name\" raw \"AFTER UPDATE ON … BEGIN … END\"), found %found")
      return false
    }
    advance()
    return true
  }

  /// Whether the token after the current one has `kind` and reads `text`.
  private func nextIs(_ kind: SwiftToken.Kind, _ text: String) -> Bool {
    let next = lexer.tokens[min(position + 1, lexer.tokens.count - 1)]
    return next.kind == kind && lexer.text(of: next) == text
  }

  /// `(a, b)`: at least one column name, from the opening parenthesis on.
  private mutating func columnList() -> [SchemaFile.Name]? {
    advance()
    var columns: [SchemaFile.Name] = []
    while !isPunctuation(")") {
      guard let column = name(of: "column") else { return nil }
      columns.append(column)
      if isPunctuation(",") {
        advance()
      } else if !isPunctuation(")") {
        return fail("expected ',' or ')' in the list of columns, found %found")
      }
    }
    advance()
    guard !columns.isEmpty else { return fail("the list of columns is empty: index (gameID, score), primary (a, b)") }
    return columns
  }

  /// `index (a, b)` or `unique (a, b)`, optionally `where raw "…"`.
  private mutating func tableIndex() -> SchemaFile.Index? {
    let isUnique = isWord("unique")
    let location = self.location
    advance()
    guard let columns = columnList() else { return nil }
    var index = SchemaFile.Index(columns: columns, isUnique: isUnique, location: location)
    if isWord("where") {
      advance()
      guard isWord("raw") else { return fail("a partial index's condition is SQL: where raw \"isArchived = 0\", found %found") }
      advance()
      guard let condition = string(after: "'where raw'") else { return nil }
      index.condition = condition
    }
    guard atItemEnd else { return fail("expected the end of the index, found %found") }
    return index
  }

  private mutating func column() -> SchemaFile.Column? {
    if isWord("check"), nextIs(.punctuation, "(") {
      return fail("a check is SQL: check raw \"score >= 0\"")
    }
    guard let name = name(of: "column") else { return nil }
    guard let type = columnType() else { return nil }
    var column = SchemaFile.Column(name: name, type: type)
    while !atItemEnd {
      let word = text
      switch (current.kind, word) {
      case (.punctuation, "="), (.operatorSymbol, "="):
        guard column.defaultValue == nil else { return fail("a column has one default") }
        advance()
        guard let value = defaultValue() else { return nil }
        column.defaultValue = value
      case (.identifier, "primary"): column.isPrimary = true; advance()
      case (.identifier, "default"):
        advance()
        guard isWord("raw") else { return fail("'default' takes SQL: default raw \"CURRENT_TIMESTAMP\"; for a value, write '= value', found %found") }
        advance()
        guard let sql = string(after: "'default raw'") else { return nil }
        column.rawDefault = sql
      case (.identifier, "backfill"):
        advance()
        guard isWord("raw") else { return fail("'backfill' takes SQL: backfill raw \"'untitled'\", found %found") }
        advance()
        guard let sql = string(after: "'backfill raw'") else { return nil }
        column.backfill = sql
      case (.identifier, "generated"):
        advance()
        guard isWord("raw") else { return fail("'generated' takes the SQL expression: generated raw \"price * quantity\", found %found") }
        advance()
        guard let sql = string(after: "'generated raw'") else { return nil }
        column.generated = sql
      case (.identifier, "stored"):
        guard column.generated != nil else { return fail("'stored' follows the expression of a generated column: generated raw \"…\" stored") }
        column.isStoredGenerated = true
        advance()
      case (.identifier, "merge"):
        advance()
        if isWord("with") {
          advance()
          guard let function = string(after: "'merge with'") else { return nil }
          column.merge = .custom(function: function)
        } else {
          guard let merge = SyncMergeModel(member: text) else {
            return fail("'merge' takes latest, max, min, union or counter, or a function: merge with \"mergeNotes\"; found %found")
          }
          column.merge = merge
          advance()
        }
      case (.identifier, "unique"): column.isUnique = true; advance()
      case (.identifier, "indexed"): column.isIndexed = true; advance()
      case (.identifier, "lossy"): column.allowsLossyConversion = true; advance()
      case (.identifier, "unindexed"): column.isUnindexed = true; advance()
      case (.identifier, "nocase"): column.collation = .nocase; advance()
      case (.identifier, "collate"):
        advance()
        guard let collation = Collation(swiftMember: text) else { return fail("collate takes nocase, binary or rtrim, found %found") }
        column.collation = collation
        advance()
      case (.identifier, "named"):
        advance()
        guard let value = string(after: "'named'") else { return nil }
        column.sqlName = value
      case (.identifier, "renamed"):
        advance()
        if isWord("from") { advance() }
        guard let value = string(after: "'renamed from'") else { return nil }
        column.previousName = value
      case (.identifier, "references"):
        advance()
        guard let table = self.name(of: "referenced table") else { return nil }
        column.references = table
      case (.identifier, "on"):
        advance()
        guard isWord("delete") else { return fail("expected 'on delete', found %found") }
        advance()
        guard let action = deleteAction() else { return nil }
        column.onDelete = action
      case (.identifier, "as"):
        advance()
        guard let representation = dottedName() else {
          return fail("'as' takes a representation such as Date.UnixTimeRepresentation, found %found")
        }
        column.representation = representation
      default:
        return fail(
          "expected a column option (primary, merge, unique, indexed, nocase, collate, named, renamed from, lossy, unindexed, references, on delete, as, default raw, backfill raw, generated raw, stored) or '= default', found %found")
      }
    }
    return column
  }

  private mutating func deleteAction() -> ReferentialAction? {
    // One word (`cascade`) or two (`set null`), as SQL spells the action.
    let problem = "on delete takes cascade, set null, set default, restrict or no action, found %found"
    let first = text
    let candidates = ReferentialAction.allCases.filter { $0.schemaWords.split(separator: " ").first.map(String.init) == first }
    guard !candidates.isEmpty else { return fail(problem) }
    advance()
    if let single = candidates.first(where: { !$0.schemaWords.contains(" ") }) { return single }
    guard let action = candidates.first(where: { $0.schemaWords == first + " " + text }) else { return fail(problem) }
    advance()
    return action
  }

  private mutating func dottedName() -> String? {
    guard current.kind == .identifier else { return nil }
    var parts = [text]
    advance()
    while isPunctuation("."), !current.followsSpace {
      advance()
      guard current.kind == .identifier else { return nil }
      parts.append(text)
      advance()
    }
    return parts.joined(separator: ".")
  }

  /// `Int`, `Text`, `Game.ID`, `Priority`, `JSON<[String: Int]>`, each optionally `?`.
  private mutating func columnType() -> SchemaFile.ColumnType? {
    guard current.kind == .identifier else { return fail("expected a type (Int, Text, UUID, Game.ID, JSON<…>, …), found %found") }
    var type: SchemaFile.ColumnType
    if text == "JSON" {
      advance()
      guard isPunctuation("<"), let argument = genericArgument() else {
        return fail("JSON takes the Swift type it stores, such as JSON<[String]>, found %found")
      }
      type = SchemaFile.ColumnType(swiftType: argument.type, isJSON: true, isOptional: argument.isOptional, components: [])
    } else {
      guard let name = dottedName() else { return fail("expected a type name, found %found") }
      let swiftName = Self.typeNames[name] ?? name
      type = SchemaFile.ColumnType(
        swiftType: swiftName, isJSON: false, isOptional: false, components: name.split(separator: ".").map(String.init))
    }
    if isPunctuation("?"), !current.followsSpace {
      type.isOptional = true
      advance()
    }
    return type
  }

  /// The schema language's own names for Swift types.
  static let typeNames = ["Text": "String", "Integer": "Int", "Real": "Double", "Bytes": "Data"]

  /// The Swift type between `<` and its matching `>`, read from the source text so that `>?`
  /// and `>>` need no special tokens. Only type syntax is accepted, so nothing else can reach the
  /// generated Swift.
  private mutating func genericArgument() -> (type: String, isOptional: Bool)? {
    let bytes = lexer.bytes
    var index = current.start + 1
    var depth = 1
    var argument: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "<") { depth += 1 }
      if byte == UInt8(ascii: ">") {
        depth -= 1
        if depth == 0 { break }
      }
      let allowed = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || Array("_[]:,?.<> ".utf8).contains(byte)
      guard allowed, argument.count < 200 else { return nil }
      argument.append(byte)
      index += 1
    }
    guard depth == 0, !argument.allSatisfy({ $0 == UInt8(ascii: " ") }) else { return nil }
    // A `?` right after the closing `>` marks the type optional; the lexer may have made one
    // token of both (`>?`).
    let isOptional = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "?")
    let end = isOptional ? index + 1 : index
    while current.kind != .endOfFile, current.start <= end { advance() }
    return (String(decoding: argument, as: UTF8.self).trimmingCharacters(in: .whitespaces), isOptional)
  }

  private mutating func defaultValue() -> SchemaFile.DefaultValue? {
    switch current.kind {
    case .string:
      guard let value = StringLiteralValue.value(of: text) else {
        return fail("a default is a plain string literal; interpolation is not allowed")
      }
      advance()
      return .string(value)
    case .integer, .float:
      defer { advance() }
      return current.kind == .integer ? .integer(text) : .float(text)
    case .operatorSymbol where text == "-":
      advance()
      guard current.kind == .integer || current.kind == .float, !current.followsSpace else {
        return fail("expected a number after '-', found %found")
      }
      defer { advance() }
      return current.kind == .integer ? .integer("-" + text) : .float("-" + text)
    case .identifier where text == "true" || text == "false":
      defer { advance() }
      return .bool(text == "true")
    case .identifier where text == "nil":
      advance()
      return .nil
    case .punctuation where text == ".":
      advance()
      guard current.kind == .identifier, !current.followsSpace else { return fail("expected an enum case after '.', found %found") }
      defer { advance() }
      return .member(text)
    case .punctuation where text == "[":
      advance()
      var isDictionary = false
      if isPunctuation(":") {
        isDictionary = true
        advance()
      }
      guard isPunctuation("]") else { return fail("a collection default is empty, [] or [:], found %found") }
      advance()
      return isDictionary ? .emptyDictionary : .emptyArray
    default:
      return fail("a default is a string, a number, true, false, nil, .case, [] or [:], found %found")
    }
  }

  private mutating func selection(access: SchemaFile.Access?) -> SchemaFile.Selection? {
    advance()
    guard let name = name(of: "selection") else { return nil }
    guard openBrace("selection") else { return nil }
    var selection = SchemaFile.Selection(name: name, access: access, fields: [])
    while !isPunctuation("}") {
      if isPunctuation(";") {
        advance()
        continue
      }
      guard current.kind != .endOfFile else { return fail("selection '\(name.text)' has no closing '}'") }
      let start = position
      guard let fieldName = self.name(of: "field"), let type = columnType() else {
        skipItem(from: start)
        continue
      }
      var field = SchemaFile.Field(name: fieldName, type: type)
      if isWord("as") {
        advance()
        guard let representation = dottedName() else { return fail("'as' takes a representation, found %found") }
        field.representation = representation
      }
      guard atItemEnd else { return fail("expected the end of the field, found %found") }
      selection.fields.append(field)
    }
    advance()
    return selection
  }

  private mutating func enumeration(access: SchemaFile.Access?) -> SchemaFile.Enumeration? {
    advance()
    guard let name = name(of: "enum") else { return nil }
    guard isPunctuation(":") else { return fail("an enum declares its raw type, such as 'enum \(name.text): Int {', found %found") }
    advance()
    guard current.kind == .identifier, let rawType = Optional(Self.typeNames[text] ?? text),
      StorageType.rawValueTypes.contains(rawType)
    else {
      return fail("an enum's raw type is Int, Text or another integer, floating-point or Bool type, found %found")
    }
    advance()
    guard openBrace("enum") else { return nil }
    var enumeration = SchemaFile.Enumeration(name: name, access: access, rawType: rawType, cases: [])
    while !isPunctuation("}") {
      if isPunctuation(",") || isPunctuation(";") || isWord("case") {
        advance()
        continue
      }
      guard current.kind != .endOfFile else { return fail("enum '\(name.text)' has no closing '}'") }
      guard let caseName = self.name(of: "case") else { return nil }
      var value: SchemaFile.DefaultValue?
      if isPunctuation("=") {
        advance()
        guard let literal = defaultValue() else { return nil }
        value = literal
      }
      enumeration.cases.append((caseName, value))
    }
    advance()
    return enumeration
  }
}
