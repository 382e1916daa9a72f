/// How a rebuild's copy converts values between storage classes, and which conversions give back
/// exactly the value stored.
///
/// The copy uses SQLite's `CAST`, except that a REAL becomes the text of all its digits when
/// `CAST`'s 15 would read back as another number (`9007199254740993.0` is not
/// `'9.00719925474099e+15'`), so that no REAL changes on its way to TEXT.
enum SQLConversion {
  /// The SQL that converts `value` to `type`.
  static func converted(_ value: String, to type: SQLType) -> String {
    guard type == .text else { return "CAST(\(value) AS \(type.sql))" }
    return "CASE WHEN typeof(\(value)) = 'real' AND CAST(CAST(\(value) AS TEXT) AS REAL) <> \(value) THEN printf('%!.17g', \(value)) ELSE CAST(\(value) AS TEXT) END"
  }

  /// The text of a REAL: SQLite's, or all 17 digits when SQLite's reads back as another number.
  private static func text(ofReal value: String) -> String {
    "CASE WHEN CAST(CAST(\(value) AS TEXT) AS REAL) = \(value) THEN CAST(\(value) AS TEXT) ELSE printf('%!.17g', \(value)) END"
  }

  /// SQL that is true when `value` (NULL included) converts to `type` and back to the same value:
  /// an integer to REAL below 2^53, text to INTEGER when it is the integer's own text (`'7'`, not
  /// `'007'` or `' 7'`), text to REAL when it is the number's own text.
  static func isExact(_ value: String, to type: SQLType) -> String {
    let same: String
    var cases: [(storageClass: String, exact: String)] = []
    switch type {
    case .integer:
      same = "integer"
      cases = [("real", "CAST(\(value) AS INTEGER) = \(value)"), ("text", "CAST(CAST(\(value) AS INTEGER) AS TEXT) = +\(value)"), ("blob", "0")]
    case .real:
      same = "real"
      cases = [("integer", "CAST(\(value) AS REAL) = \(value)"), ("text", "\(text(ofReal: "CAST(\(value) AS REAL)")) = +\(value)"), ("blob", "0")]
    case .text:
      same = "text"
      cases = [("integer", "1"), ("real", "1"), ("blob", "CAST(CAST(\(value) AS TEXT) AS BLOB) = \(value)")]
    case .blob:
      same = "blob"
      cases = [("integer", "0"), ("real", "0"), ("text", "1")]
    case .any, .none, .other:
      return "1"
    }
    let branches = cases.map { " WHEN '\($0.storageClass)' THEN \($0.exact)" }.joined()
    return "(CASE typeof(\(value)) WHEN 'null' THEN 1 WHEN '\(same)' THEN 1\(branches) END)"
  }

  /// Whether a rebuild into `new` converts the values of a column, and so may change them: the
  /// declared type changes, or the new table is STRICT and the old one let the column hold values
  /// of any type.
  static func converts(from old: ColumnSchema, in oldTable: TableSchema, to new: ColumnSchema, in newTable: TableSchema) -> Bool {
    guard newTable.isStrict, [.integer, .real, .text, .blob].contains(new.type) else { return false }
    // An INTEGER PRIMARY KEY is the rowid: it holds integers whatever the table.
    if old.type == .integer, new.type == .integer, old.primaryKey != nil, !oldTable.isWithoutRowID { return false }
    return old.type != new.type || !oldTable.isStrict
  }
}

extension ValueFormat {
  /// SQL that is true when `value`, which is not NULL, is one the model's decoder reads.
  func accepts(_ value: String) -> String {
    switch self {
    case .uuidText:
      let hex = "[0-9A-Fa-f]"
      let pattern = [8, 4, 4, 4, 12].map { String(repeating: hex, count: $0) }.joined(separator: "-")
      return "(typeof(\(value)) = 'text' AND \(value) GLOB '\(pattern)')"
    case .dateText:
      return Self.dateText(value)
    case .uuidBytes:
      return "(typeof(\(value)) = 'blob' AND length(\(value)) = 16)"
    case .integers(let range):
      return "(typeof(\(value)) = 'integer' AND \(value) BETWEEN \(range.lowerBound) AND \(range.upperBound))"
    case .oneOf(let values):
      return "(\(value) IN (\(values.map(\.sql).joined(separator: ", "))))"
    case .json(let shape):
      let valid = "(typeof(\(value)) = 'text' AND json_valid(\(value))"
      return shape == .any ? valid + ")" : valid + " AND json_type(\(value)) = '\(shape.rawValue)')"
    }
  }

  /// The date forms the runtime's `DateText.parse` reads: `YYYY-MM-DD`, then optionally a space
  /// or `T` and `HH:MM`, `:SS`, `.` and 1 to 9 digits, and `Z` or `±HH:MM`; a real day of a real
  /// month, hours below 24, minutes and seconds below 60.
  private static func dateText(_ value: String) -> String {
    func zone(_ text: String) -> String {
      "(\(text) IN ('', 'Z') OR (\(text) GLOB '[+-][0-9][0-9]:[0-5][0-9]' AND substr(\(text), 2, 2) < '24'))"
    }
    let afterMinutes = "substr(\(value), 17)"
    let afterSeconds = "substr(\(value), 20)"
    let fraction = "substr(\(value), 21)"
    let afterFraction = "ltrim(\(fraction), '0123456789')"
    let fractionDigits = "length(\(fraction)) - length(\(afterFraction))"
    let time = [
      "substr(\(value), 11, 6) GLOB '[ T][0-2][0-9]:[0-5][0-9]' AND substr(\(value), 12, 2) < '24'",
      "(\(zone(afterMinutes)) OR (\(afterMinutes) GLOB ':[0-5][0-9]*' AND (\(zone(afterSeconds)) OR (\(afterSeconds) GLOB '.[0-9]*' AND \(fractionDigits) BETWEEN 1 AND 9 AND \(zone(afterFraction))))))",
    ].joined(separator: " AND ")
    return "(typeof(\(value)) = 'text' AND \(value) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND date(substr(\(value), 1, 10), '+0 days') IS substr(\(value), 1, 10) AND (length(\(value)) = 10 OR (\(time))))"
  }
}
