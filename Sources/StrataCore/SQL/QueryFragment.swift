import StrataSQL

/// A piece of SQL text with its bound values.
///
/// `sql` uses anonymous `?` placeholders; `bindings` holds their values in order. Fragments are
/// built by the query builder from identifiers (always quoted), keywords and bindings; the only
/// way to put arbitrary text into one is an API whose name says `raw`.
public struct QueryFragment: Hashable, Sendable {
  /// The SQL text, with a `?` for each binding.
  public private(set) var sql: String
  /// The values bound to the placeholders of `sql`, in order.
  public private(set) var bindings: [QueryBinding]

  /// The value, when the fragment is one bound value and nothing else (`?`).
  var singleBinding: QueryBinding? {
    bindings.count == 1 && sql == "?" ? bindings[0] : nil
  }
  /// The fragment's kind and dialect pieces, in one word that is a plain value unless the
  /// fragment has pieces: a fragment is copied at every step of building a statement, and a
  /// separate field for the pieces (which almost no fragment has) made that 8% slower.
  private var traits = Traits.atom

  private enum Traits: Hashable, Sendable {
    case atom, operation, statement
    indirect case respelled(Kind, [PlacedPiece])

    init(_ kind: Kind) {
      switch kind {
      case .atom: self = .atom
      case .operation: self = .operation
      case .statement: self = .statement
      }
    }
  }

  /// What kind of SQL the fragment is, which decides where it needs parentheses.
  var kind: Kind {
    get {
      switch traits {
      case .atom: .atom
      case .operation: .operation
      case .statement: .statement
      case .respelled(let kind, _): kind
      }
    }
    set {
      if case .respelled(_, let pieces) = traits {
        traits = .respelled(newValue, pieces)
      } else {
        traits = Traits(newValue)
      }
    }
  }

  /// The pieces of `sql` another dialect spells differently, in order; nil for none.
  var pieces: [PlacedPiece]? {
    get {
      if case .respelled(_, let pieces) = traits { pieces } else { nil }
    }
    set {
      traits = newValue.map { .respelled(kind, $0) } ?? Traits(kind)
    }
  }

  @usableFromInline
  enum Kind: Hashable, Sendable {
    /// A column, a value, a function call: never needs parentheses.
    case atom
    /// An operator expression: parenthesized as the operand of another operator.
    case operation
    /// A statement: parenthesized wherever it is used as an expression (a subquery).
    case statement
  }

  /// An empty fragment.
  public init() {
    sql = ""
    bindings = []
  }

  /// A fragment made of SQL text taken as is.
  ///
  /// The text is not escaped or checked: pass only text written by the programmer.
  public init(raw sql: String) {
    self.sql = sql
    bindings = []
  }

  @usableFromInline
  init(sql: String, bindings: [QueryBinding]) {
    self.sql = sql
    self.bindings = bindings
  }

  /// SQL text taken as is, with its bindings: for the benchmark, which runs SQL built once
  /// through the executors to tell their cost from the builder's. Not for apps.
  @_spi(Benchmark)
  public init(raw sql: String, bindings: [QueryBinding]) {
    self.init(sql: sql, bindings: bindings)
  }

  /// The fragment with `bindings` in its placeholders instead of its own, as many as it has:
  /// a prepared statement's text (and pieces) with one run's values.
  @usableFromInline
  func replacingBindings(_ bindings: [QueryBinding]) -> QueryFragment {
    var fragment = self
    fragment.bindings = bindings
    return fragment
  }

  /// A `?` placeholder bound to `binding`.
  public init(binding: QueryBinding) {
    sql = "?"
    bindings = [binding]
  }

  /// A double-quoted SQL identifier; inner double quotes are doubled.
  public init(quoting identifier: String) {
    sql = Self.quote(identifier)
    bindings = []
  }

  /// A qualified column reference, `"table"."column"`.
  public init(table: String, column: String) {
    sql = Self.quote(table) + "." + Self.quote(column)
    bindings = []
  }

  /// `prefix` (raw text), then `first`, `second` and `third`, one after the other, the text
  /// written once at its length (``SQLText``): an operator expression's `lhs op rhs`, a join's
  /// `JOIN table ON condition`.
  @usableFromInline
  init(joining first: QueryFragment, _ second: QueryFragment, _ third: QueryFragment, after prefix: String = "") {
    guard !first.hasPieces, !second.hasPieces, !third.hasPieces else {
      self = QueryFragment(raw: prefix) + first + second + third
      return
    }
    let (a, b, c) = (first.sql, second.sql, third.sql)
    sql = SQLText.build(length: prefix.utf8.count + a.utf8.count + b.utf8.count + c.utf8.count) {
      if !prefix.isEmpty { $0.write(prefix) }
      $0.write(a)
      $0.write(b)
      $0.write(c)
    }
    var bindings = first.bindings
    bindings.appendTakingStorage(second.bindings)
    bindings.appendTakingStorage(third.bindings)
    self.bindings = bindings
  }

  /// Whether another dialect spells part of the fragment differently (``pieces``), asked
  /// without copying the pieces.
  @usableFromInline
  var hasPieces: Bool {
    if case .respelled = traits { true } else { false }
  }

  /// Whether the fragment holds no SQL.
  public var isEmpty: Bool { sql.isEmpty }

  /// Whether the fragment is one bound value's `?`, which renders the same for every value.
  @usableFromInline
  var isPlaceholder: Bool { bindings.count == 1 && sql == "?" && pieces == nil }

  /// Reserves room for SQL text, for a fragment that many appends build.
  @usableFromInline
  mutating func reserveCapacity(_ count: Int) {
    sql.reserveCapacity(count)
  }

  /// Appends `other`'s SQL and bindings.
  public mutating func append(_ other: QueryFragment) {
    if other.pieces != nil { appendPieces(of: other, at: sql.utf8.count) }
    sql += other.sql
    bindings.appendTakingStorage(other.bindings)
  }

  /// Takes `other`'s dialect pieces, for its text placed at `offset` of this fragment's.
  mutating func appendPieces(of other: QueryFragment, at offset: Int) {
    guard let placed = other.pieces else { return }
    pieces = (pieces ?? []) + placed.map { PlacedPiece(offset: $0.offset + offset, length: $0.length, piece: $0.piece) }
  }

  /// Appends SQL text taken as is; pass only text written by the programmer.
  public mutating func append(raw sql: String) {
    self.sql += sql
  }

  /// Appends a double-quoted identifier.
  public mutating func append(quoting identifier: String) {
    sql += Self.quote(identifier)
  }

  /// The fragment as the operand of an operator: parenthesized unless it is an atom.
  @usableFromInline
  var operand: QueryFragment {
    kind == .atom ? self : parenthesized()
  }

  /// The fragment as a function argument or list element: a subquery is parenthesized.
  var argument: QueryFragment {
    kind == .statement ? parenthesized() : self
  }

  /// The fragment marked as an operator expression.
  @usableFromInline
  func compound() -> QueryFragment {
    marked(.operation)
  }

  /// The fragment marked as a kind of SQL.
  @usableFromInline
  func marked(_ kind: Kind) -> QueryFragment {
    var fragment = self
    fragment.kind = kind
    return fragment
  }

  /// The fragment wrapped in parentheses.
  func parenthesized() -> QueryFragment {
    "(" + self + ")"
  }

  static func + (lhs: QueryFragment, rhs: QueryFragment) -> QueryFragment {
    var result = lhs
    result.kind = .atom
    result.append(rhs)
    return result
  }

  static func quote(_ identifier: String) -> String {
    SQLQuoting.identifier(identifier)
  }
}

extension QueryFragment: ExpressibleByStringLiteral {
  /// A fragment of SQL text from a literal in source code.
  public init(stringLiteral value: String) {
    self.init(raw: value)
  }
}

extension QueryFragment: CustomStringConvertible, CustomDebugStringConvertible {
  /// The fragment with every binding written as a literal (``QueryBinding/description``), for
  /// the statements SQLite keeps as text and so cannot take parameters: `CREATE VIEW` and
  /// `CREATE TRIGGER`.
  func inlined() -> QueryFragment {
    QueryFragment(sql: description, bindings: []).marked(kind)
  }

  /// The SQL text with every binding written inline as a literal, for logs and tests.
  ///
  /// Question marks inside quoted strings, names and comments are left alone.
  public var description: String {
    let lexer = SQLLexer(sql, keepingComments: true)
    var result = ""
    var values = bindings.makeIterator()
    var copied = 0
    for lexeme in lexer where lexeme.kind == .symbol && lexer.bytes[lexeme.range.lowerBound] == UInt8(ascii: "?") {
      guard let value = values.next() else { break }
      result += lexer.text(copied..<lexeme.range.lowerBound) + value.description
      copied = lexeme.range.upperBound
    }
    return result + lexer.text(copied..<lexer.bytes.count)
  }

  public var debugDescription: String { description }
}

extension Sequence<QueryFragment> {
  /// The fragments joined by `separator`.
  public func joined(separator: String) -> QueryFragment {
    var result = QueryFragment()
    var isFirst = true
    for fragment in self {
      if !isFirst { result.append(raw: separator) }
      result.append(fragment)
      isFirst = false
    }
    return result
  }
}
