import StrataSQL

// Text matching and SQLite's core text functions.
//
// `contains`, `hasPrefix` and `hasSuffix` are case-sensitive, like their Swift namesakes, and
// treat their argument as plain text (no wildcards). `like` follows SQLite: `%` and `_` are
// wildcards and ASCII letters match regardless of case.

extension DatabaseExpression where QueryValue: QueryRepresentable, QueryValue.Unwrapped == String {
  /// `lhs LIKE pattern`, optionally with an `ESCAPE` character.
  ///
  /// SQLite's `LIKE` ignores the case of ASCII letters and has no escape character unless one
  /// is given; on PostgreSQL the statement says `ILIKE` (which ignores case per the database's
  /// locale) and `ESCAPE ''` for the same meaning.
  public func like(_ pattern: some QueryExpression<String>, escape: Character? = nil)
    -> AnyQueryExpression<Bool>
  {
    var fragment = SQLOperator.binary(self, QueryFragment(piece: .respelled(sqlite: " LIKE ", postgreSQL: " ILIKE ")), pattern)
    if let escape {
      fragment.append(raw: " ESCAPE ")
      fragment.append(String(escape).queryFragment)
    } else {
      fragment.append(QueryFragment(piece: .postgreSQLText(" ESCAPE ''")))
    }
    return AnyQueryExpression(fragment.compound())
  }

  /// Whether the text contains `other`: `instr(lhs, ?) > 0`.
  public func contains(_ other: String) -> AnyQueryExpression<Bool> {
    AnyQueryExpression(
      (SQLOperator.function(.instr, queryFragment, other.queryFragment) + " > 0").compound())
  }

  /// Whether the text starts with `prefix`: `instr(lhs, ?) = 1`.
  public func hasPrefix(_ prefix: String) -> AnyQueryExpression<Bool> {
    guard !prefix.isEmpty else { return AnyQueryExpression(SQLOperator.postfix(self, " IS NOT NULL")) }
    return AnyQueryExpression(
      (SQLOperator.function(.instr, queryFragment, prefix.queryFragment) + " = 1").compound())
  }

  /// Whether the text ends with `suffix`: `substr(lhs, -n) = ?` (PostgreSQL's `right(lhs, n)`).
  public func hasSuffix(_ suffix: String) -> AnyQueryExpression<Bool> {
    guard !suffix.isEmpty else { return AnyQueryExpression(SQLOperator.postfix(self, " IS NOT NULL")) }
    // The length is Strata's count, not text from the caller, so it is written into the SQL.
    let length = suffix.unicodeScalars.count
    let tail = QueryFragment(piece: .respelled(sqlite: "substr(", postgreSQL: "right(")) + queryFragment.argument
      + QueryFragment(piece: .respelled(sqlite: ", -\(length))", postgreSQL: ", \(length))"))
    return AnyQueryExpression((tail + " = " + suffix.queryFragment).compound())
  }

  /// `lower(text)`: ASCII letters in lowercase.
  public func lower() -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.function("lower", queryFragment))
  }

  /// `upper(text)`: ASCII letters in uppercase.
  public func upper() -> AnyQueryExpression<QueryValue> {
    AnyQueryExpression(SQLOperator.function("upper", queryFragment))
  }

  /// `trim(text)`: spaces removed from both ends, or the given characters.
  public func trim(_ characters: String? = nil) -> AnyQueryExpression<QueryValue> {
    trimming("trim", characters)
  }

  /// `ltrim(text)`: spaces removed from the start, or the given characters.
  public func ltrim(_ characters: String? = nil) -> AnyQueryExpression<QueryValue> {
    trimming("ltrim", characters)
  }

  /// `rtrim(text)`: spaces removed from the end, or the given characters.
  public func rtrim(_ characters: String? = nil) -> AnyQueryExpression<QueryValue> {
    trimming("rtrim", characters)
  }

  private func trimming(_ function: String, _ characters: String?) -> AnyQueryExpression<QueryValue> {
    guard let characters else { return AnyQueryExpression(SQLOperator.function(function, queryFragment)) }
    return AnyQueryExpression(SQLOperator.function(function, queryFragment, characters.queryFragment))
  }

  /// `length(text)`: the number of characters (Unicode scalars) before the first NUL.
  public func length() -> AnyQueryExpression<Int> {
    AnyQueryExpression(SQLOperator.function("length", queryFragment))
  }

  /// `lhs COLLATE name`: compares and sorts the text with `collation`.
  public func collate(_ collation: Collation) -> AnyQueryExpression<QueryValue> {
    var fragment = queryFragment.operand
    fragment.append(raw: " COLLATE ")
    fragment.append(raw: collation.sql)
    // PostgreSQL's collations are the operating system's; SQLite's built-in ones are its own.
    if collation == .nocase || collation == .rtrim { fragment = fragment.sqliteOnly("the collation \(collation.name)") }
    return AnyQueryExpression(fragment)
  }
}
