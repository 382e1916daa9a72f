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
    }
  }

  /// `DROP VIEW`, `DROP TRIGGER` or `DROP TABLE` (a virtual table, which takes its shadow tables
  /// with it).
  static func drop(_ object: SchemaObject) -> String {
    let keyword = switch object.kind {
    case .view: "VIEW"
    case .trigger: "TRIGGER"
    case .virtualTable: "TABLE"
    }
    return "DROP \(keyword) \(SQLQuoting.identifier(object.name));"
  }

  private static func createFullTextIndex(_ index: FullTextIndex) -> [String] {
    let name = SQLQuoting.identifier(index.name)
    var arguments = index.columns.map(SQLQuoting.identifier)
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
    // the triggers give it the new text and take back the old, with FTS5's 'delete' command.
    let table = SQLQuoting.identifier(content.table)
    let columns = ([content.rowidColumn] + index.columns).map(SQLQuoting.identifier)
    let targets = (["rowid"] + index.columns).map(SQLQuoting.identifier).joined(separator: ", ")
    func values(of row: String) -> String { columns.map { "\(SQLQuoting.identifier(row)).\($0)" }.joined(separator: ", ") }
    let add = "INSERT INTO \(name)(\(targets)) VALUES (\(values(of: "new")));"
    let remove = "INSERT INTO \(name)(\(name), \(targets)) VALUES ('delete', \(values(of: "old")));"
    for event in FullTextIndex.SyncEvent.allCases {
      let (head, body): (String, [String]) = switch event {
      case .insert: ("AFTER INSERT ON \(table)", [add])
      case .update: ("AFTER UPDATE OF \(columns.joined(separator: ", ")) ON \(table)", [remove, add])
      case .delete: ("AFTER DELETE ON \(table)", [remove])
      }
      statements.append(
        "CREATE TRIGGER \(SQLQuoting.identifier(index.triggerName(event))) \(head) BEGIN\n"
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
