/// How a column's values become another PostgreSQL type in `ALTER COLUMN … TYPE … USING`, with
/// the meaning SQLite's conversion has for the same models: numbers convert as numbers, a
/// boolean is 1 or 0 as a number or as text, a date as text is Strata's UTC text
/// (`2025-01-02 03:04:05.678`), bytes as text are their UTF-8, and text as bytes its UTF-8.
/// Anything else goes through the value's text, which every type reads back or refuses: a value
/// that does not convert is found by the migration's check, which stops before anything changes
/// and names the row.
enum PostgreSQLConversion {
  private static let numbers: Set<String> = ["bigint", "integer", "smallint", "double precision", "real", "numeric"]

  /// The SQL that converts `value`, of type `from`, to type `to`.
  static func converted(_ value: String, from: String, to: String) -> String {
    switch (from, to) {
    case _ where from == to:
      return value
    case ("boolean", _) where numbers.contains(to):
      return "CASE WHEN \(value) THEN 1 ELSE 0 END"
    case (_, "boolean") where numbers.contains(from):
      return "(\(value) <> 0)"
    case _ where numbers.contains(from) && numbers.contains(to):
      return "\(value)::\(to)"
    case (_, "text"):
      return text(value, of: from)
    case (_, "bytea"):
      return "convert_to(\(text(value, of: from)), 'UTF8')"
    default:
      return "(\(text(value, of: from)))::\(to)"
    }
  }

  /// `value` as the text SQLite would hold for it.
  private static func text(_ value: String, of type: String) -> String {
    switch type {
    case "text": value
    case "boolean": "CASE WHEN \(value) THEN '1' ELSE '0' END"
    case "timestamptz": "to_char(\(value) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')"
    case "bytea": "convert_from(\(value), 'UTF8')"
    default: "\(value)::text"
    }
  }

  /// Whether converting a value from `from` to `to` may change it, so that only a model that
  /// allows it (`@AllowLossyConversion`) converts such values: a fraction to an integer or a
  /// boolean, and a number or boolean to bytes (its text's, which SQLite refuses too).
  static func lossyRows(_ value: String, from: String, to: String) -> String? {
    let fractional: Set<String> = ["double precision", "real", "numeric"]
    if fractional.contains(from), to == "boolean" || numbers.subtracting(fractional).contains(to) {
      return "\(value) <> trunc(\(value))"
    }
    if to == "bytea", numbers.contains(from) || from == "boolean" {
      return "\(value) IS NOT NULL"
    }
    return nil
  }
}
