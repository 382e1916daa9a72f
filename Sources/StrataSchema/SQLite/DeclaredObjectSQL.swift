import StrataSQL

/// The statements that make and drop the objects models declare, in SQLite's SQL.
extension SQLRenderer {
  /// The statements that create `object`, each ending with `;`: a full-text index with external
  /// content also gets the triggers that keep it in sync and the `rebuild` command that indexes
  /// the rows its content table already has.
  public static func create(_ object: DeclaredObject) -> [String] {
    switch object {
    case .fullTextIndex(let index): createFullTextIndex(index)
    case .view(let view):
      [
        "CREATE VIEW \(SQLQuoting.identifier(view.name)) (\(view.columns.map(SQLQuoting.identifier).joined(separator: ", "))) AS\n"
          + view.select.trimmingTrailingSemicolon + ";"
      ]
    case .trigger(let trigger):
      ["CREATE TRIGGER \(SQLQuoting.identifier(trigger.name)) \(trigger.definition.trimmingTrailingSemicolon);"]
    case .syncCapture(let capture): createSyncCapture(capture)
    }
  }

  /// `DROP VIEW`, `DROP TRIGGER` or `DROP TABLE` (a virtual table, which takes its shadow tables
  /// with it, and the table of replaced rows of a full-text index's triggers, if it has one).
  static func drop(_ object: SchemaObject) -> [String] {
    let keyword = switch object.kind {
    case .view: "VIEW"
    case .trigger: "TRIGGER"
    case .virtualTable: "TABLE"
    }
    let statement = "DROP \(keyword) \(SQLQuoting.identifier(object.name));"
    guard object.kind == .virtualTable else { return [statement] }
    return [statement, "DROP TABLE IF EXISTS \(SQLQuoting.identifier(FullTextIndex.replacedRowsTable(of: object.name)));"]
  }

  private static func createFullTextIndex(_ index: FullTextIndex) -> [String] {
    let name = SQLQuoting.identifier(index.name)
    var arguments = index.columns.map { SQLQuoting.identifier($0) + (index.unindexed.contains($0) ? " UNINDEXED" : "") }
    if let content = index.content {
      arguments.append("content=\(SQLQuoting.string(content.table))")
      arguments.append("content_rowid=\(SQLQuoting.string(content.rowidColumn))")
    }
    if let tokenizer = index.tokenizer { arguments.append("tokenize=\(SQLQuoting.string(tokenizer))") }
    if !index.prefixes.isEmpty {
      arguments.append("prefix=\(SQLQuoting.string(index.prefixes.map(String.init).joined(separator: " ")))")
    }
    var statements = ["CREATE VIRTUAL TABLE \(name) USING fts5(\(arguments.joined(separator: ", ")));"]
    guard let content = index.content else { return statements }
    // The index reads the content table's rows by rowid; on every write to the content table
    // the triggers give it the new text and take back the old, with FTS5's 'delete' command,
    // including the rows a REPLACE deletes (see FullTextIndex.SyncTrigger).
    let table = SQLQuoting.identifier(content.table)
    let replaced = SQLQuoting.identifier(index.replacedRowsTable)
    let indexed = index.columns.map(SQLQuoting.identifier)
    let targets = (["rowid"] + index.columns).map(SQLQuoting.identifier).joined(separator: ", ")
    func values(of row: String, rowid: String = content.rowidColumn) -> String {
      ([rowid] + index.columns).map { "\(SQLQuoting.identifier(row)).\(SQLQuoting.identifier($0))" }.joined(separator: ", ")
    }
    // The rows that share the new row's rowid or one of its unique keys: those a REPLACE deletes.
    let sharesKey = ([["rowid"]] + content.replacingKeys).map { key in
      let equalities = key.map { "\(table).\(SQLQuoting.identifier($0)) = \(SQLQuoting.identifier("new")).\(SQLQuoting.identifier($0))" }
      return equalities.count == 1 ? equalities[0] : "(" + equalities.joined(separator: " AND ") + ")"
    }.joined(separator: " OR ")
    let replacedColumns = (["rowid"] + index.columns).map(SQLQuoting.identifier).joined(separator: ", ")
    func keep(otherThanOld: Bool) -> [String] {
      let condition = otherThanOld ? "\(table).\"rowid\" <> \"old\".\"rowid\" AND (\(sharesKey))" : sharesKey
      return [
        "DELETE FROM \(replaced);",
        "INSERT INTO \(replaced) (\(replacedColumns))\n    SELECT \(values(of: content.table, rowid: "rowid")) FROM \(table)\n    WHERE \(condition);",
      ]
    }
    let forgetReplaced = [
      "INSERT INTO \(name)(\(name), \(targets))\n    SELECT 'delete', \(values(of: "replaced", rowid: "rowid")) FROM \(replaced) AS \"replaced\""
        + "\n    WHERE \"replaced\".\"rowid\" = \"new\".\(SQLQuoting.identifier(content.rowidColumn))"
        + " OR NOT EXISTS (SELECT 1 FROM \(table) WHERE \(table).\"rowid\" = \"replaced\".\"rowid\");",
      "DELETE FROM \(replaced);",
    ]
    let add = "INSERT INTO \(name)(\(targets)) VALUES (\(values(of: "new")));"
    let remove = "INSERT INTO \(name)(\(name), \(targets)) VALUES ('delete', \(values(of: "old")));"
    // An update of the rowid, an indexed column or a unique key may replace rows or change the
    // text; the before and after triggers fire on the same columns, so that the after trigger
    // only ever reads what its own before trigger kept.
    var updated: [String] = []
    for column in [content.rowidColumn] + index.columns + content.replacingKeys.joined() where !updated.contains(column) {
      updated.append(column)
    }
    let updateOf = "UPDATE OF \(updated.map(SQLQuoting.identifier).joined(separator: ", ")) ON \(table)"
    statements.append("CREATE TABLE \(replaced) (\"rowid\" INTEGER PRIMARY KEY, \(indexed.joined(separator: ", ")));")
    for trigger in FullTextIndex.SyncTrigger.allCases {
      let (head, body): (String, [String]) = switch trigger {
      case .beforeInsert: ("BEFORE INSERT ON \(table)", keep(otherThanOld: false))
      case .afterInsert: ("AFTER INSERT ON \(table)", forgetReplaced + [add])
      case .beforeUpdate: ("BEFORE \(updateOf)", keep(otherThanOld: true))
      case .afterUpdate: ("AFTER \(updateOf)", forgetReplaced + [remove, add])
      case .afterDelete: ("AFTER DELETE ON \(table)", [remove])
      }
      statements.append(
        "CREATE TRIGGER \(SQLQuoting.identifier(index.triggerName(trigger))) \(head) BEGIN\n"
          + body.map { "  " + $0 }.joined(separator: "\n") + "\nEND;")
    }
    statements.append(rebuild(index))
    return statements
  }

  /// FTS5's `rebuild` command: reindexes every row of the content table.
  static func rebuild(_ index: FullTextIndex) -> String {
    let name = SQLQuoting.identifier(index.name)
    return "INSERT INTO \(name)(\(name)) VALUES ('rebuild');"
  }
}

extension String {
  /// The text without trailing white space and one final `;`, for SQL a model writes whole.
  fileprivate var trimmingTrailingSemicolon: String {
    var text = Substring(self)
    while let last = text.last, last.isWhitespace { text = text.dropLast() }
    if text.last == ";" { text = text.dropLast() }
    while let last = text.last, last.isWhitespace { text = text.dropLast() }
    return String(text)
  }
}
