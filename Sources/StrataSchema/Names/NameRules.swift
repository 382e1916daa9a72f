/// What a table or column name must be so that every file generated from it is safe and means
/// what it says. Names reach SQL identifiers, SQL and Swift comments, migration file names and
/// Swift string literals; each of those has its own escaping, and these rules keep out what no
/// escaping makes readable.
enum NameRules {
  /// Why `name` cannot name a table, or nil when it can.
  static func tableNameProblem(_ name: String) -> String? {
    if let problem = commonProblem(name, kind: "table") { return problem }
    let folded = SQLName.folded(name)
    if folded.hasPrefix("sqlite_") {
      return "table name \(display(name)) starts with sqlite_, which SQLite reserves for its own tables; choose another with @Table(\"…\")"
    }
    if reservedTables.contains(folded) {
      return "table name \(display(name)) is the table GRDB's migrator or Strata records migrations in; choose another with @Table(\"…\")"
    }
    if folded.hasPrefix("strata_sync_") {
      return "table name \(display(name)) starts with strata_sync_, which sync keeps for its own tables; choose another with @Table(\"…\")"
    }
    return nil
  }

  /// Why `name` cannot name an attached database, or nil when it can. The name is a folder of
  /// the target's migrations and part of the snapshot's file name, so it is a plain identifier.
  static func schemaNameProblem(_ name: String) -> String? {
    let isIdentifier = name.utf8.first.map { $0 == UInt8(ascii: "_") || ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") } == true
      && name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    if !isIdentifier {
      return "attached database name \(display(name)) must be letters, digits and underscores, not starting with a digit: it names the folder of its migrations"
    }
    if ["main", "temp"].contains(SQLName.folded(name)) {
      return "\(display(name)) is SQLite's own name for the \(SQLName.folded(name) == "main" ? "main" : "temporary") database; leave schema: out for the main database"
    }
    return nil
  }

  /// Why `name` cannot name a column, or nil when it can.
  static func columnNameProblem(_ name: String) -> String? {
    if let problem = commonProblem(name, kind: "column") { return problem }
    if rowIDAliases.contains(SQLName.folded(name)) {
      return "column name \(display(name)) would hide SQLite's rowid, which Strata uses to update and delete ordered or limited rows; rename the column with @Column(\"…\")"
    }
    return nil
  }

  /// Tables that belong to SQLite or GRDB, folded.
  static let reservedTables: Set<String> = ["grdb_migrations", "strata_migrations"]

  private static let rowIDAliases: Set<String> = ["rowid", "oid", "_rowid_"]

  private static func commonProblem(_ name: String, kind: String) -> String? {
    if name.isEmpty { return "a \(kind) name cannot be empty" }
    if let scalar = InvisibleCharacters.first(in: name) {
      return "\(kind) name \(display(name)) contains \(InvisibleCharacters.describe(scalar)), a control or invisible character; names reach SQL and Swift comments, file names and literals, so they must be printable"
    }
    if name.first?.isWhitespace == true || name.last?.isWhitespace == true {
      return "\(kind) name \(display(name)) starts or ends with a space, which reads as a different name in SQL"
    }
    return nil
  }

  /// A name quoted for a message, with anything invisible escaped.
  static func display(_ name: String) -> String {
    SwiftLiteral.string(name)
  }
}

/// SQLite's view of names.
enum SQLName {
  /// `name` as SQLite compares it: names differ only beyond ASCII letters' case.
  static func folded(_ name: String) -> String {
    String(
      String.UnicodeScalarView(
        name.unicodeScalars.map { scalar in
          ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }))
  }
}
