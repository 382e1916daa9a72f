/// A token of Swift source. The front-end lexes every token of a file, so that braces in
/// strings, comments and regex literals never confuse the parser, but parses only declarations.
struct SwiftToken: Sendable {
  enum Kind: Sendable, Equatable {
    case identifier
    /// `` `name` ``: the text is the name without backticks.
    case escapedIdentifier
    case integer
    case float
    case string
    case regex
    /// One of `{ } ( ) [ ] < > , : ; . @ = ? !` or `->`.
    case punctuation
    /// Any other operator, such as `==`, `??`, `+`, `...`.
    case operatorSymbol
    /// `#if`, `#else`, `#Preview`, …: the text includes the `#`.
    case pound
    case endOfFile
  }

  var kind: Kind
  /// The token's range in the file's UTF-8 bytes.
  var start: Int
  var end: Int
  var line: Int
  var column: Int
  /// Whether a line break separates this token from the previous one.
  var followsNewline: Bool
  /// Whether whitespace or a comment separates this token from the previous one.
  var followsSpace: Bool
}

/// A comment, kept aside for annotations (`// @Column("due_date")`).
struct SwiftComment: Sendable {
  var text: String
  var line: Int
  var column: Int
  var endLine: Int
  var isLineComment: Bool
}
