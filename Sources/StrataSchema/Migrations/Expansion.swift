import StrataSQL

/// What an expand step keeps for the older schemas of the compatibility window: a column renamed
/// (kept under its old name, in step with the new one), a column or a table no model reads any
/// more.
///
/// The migration that keeps it says so in its header, one line each (``marker``), and that line
/// is the record: the planner reads the migrations, not a file beside them, so the build's drift
/// check and `generate-migrations` agree on what is kept. What is kept goes (the contract step)
/// once the window starts at the migration that kept it or later, when no schema in the window
/// predates it.
struct Expansion: Equatable {
  enum Kind: Equatable {
    /// The column `column` of `table` is kept under its old name, and triggers keep it and the
    /// model's column `to` holding the same value, whichever name a version writes.
    case renamedColumn(to: String)
    /// The column is kept, with the default (or NULL) it has, for older versions to read and
    /// write; the models no longer read it.
    case droppedColumn
    /// The table is kept, rows and all; the models no longer read it.
    case droppedTable
    /// The table, renamed `to`, is kept under its old name `table` as a view of it that older
    /// versions read and write through.
    case renamedTable(to: String)
    /// A constraint the models add that an older writer could break waits until the window
    /// moves: the table keeps its current definition of it.
    case deferred(Deferral)
  }

  /// A constraint an expand step holds back.
  enum Deferral: Equatable {
    /// `UNIQUE` on the column.
    case unique
    /// `NOT NULL` on a column with a default: triggers give the default to a row an older
    /// version writes NULL into, so that this version never reads one.
    case notNull
    /// The column's foreign key.
    case foreignKey
    /// The table's `CHECK`s (`@Check(raw:)`).
    case checks
    /// A unique index, by name.
    case uniqueIndex(String)

    /// The marker's words after the table (and column).
    var words: String {
      switch self {
      case .unique: "without its new UNIQUE"
      case .notNull: "without its new NOT NULL"
      case .foreignKey: "without its new foreign key"
      case .checks: "without its new CHECKs"
      case .uniqueIndex(let name): "without the new unique index \(SQLQuoting.identifier(name))"
      }
    }
  }

  /// What the expansion is about, for telling two apart: the table, the column, and a deferred
  /// constraint's kind.
  var identity: String {
    var identity = SQLName.folded(after) + (column.map { "." + SQLName.folded($0) } ?? "")
    if case .deferred(let deferral) = kind { identity += " " + deferral.words.lowercased() }
    return identity
  }

  /// The table as the migration that kept it named it; its triggers keep that name.
  var table: String
  /// The table's name before and after the migration being planned, where a renamed table's
  /// expand step (since, or in this migration) changed it.
  var tableBefore: String? = nil
  var tableAfter: String? = nil
  /// The column kept; nil for a table.
  var column: String?
  var kind: Kind
  /// The number of the migration that kept it; 0 for one being planned.
  var migration: Int = 0
  /// The default of a renamed column, which its triggers give a row that a version inserts
  /// without either name (not recorded: only the expand step needs it).
  var newDefault: ColumnDefault? = nil
  /// A renamed column's declared types, old and new, when the rename changes the type too: the
  /// triggers convert each way, and refuse a value the other type would not hold exactly.
  var oldType: SQLType? = nil
  var newType: SQLType? = nil
  /// The columns a renamed table's view reads: those older versions know.
  var viewColumns: [String] = []

  /// The message a trigger stops a write with when the value does not convert exactly to the
  /// other name's type.
  var conversionRefusal: (toOld: String, toNew: String)? {
    guard let (old, new) = renamedColumns, let oldType, let newType, oldType != newType else { return nil }
    func message(_ from: String, _ to: String, _ type: SQLType, _ readers: String) -> String {
      "strata: a value written to \(SQLQuoting.identifier(table)).\(SQLQuoting.identifier(from)) does not convert exactly to \(SQLQuoting.identifier(to)) \(type.sql), which \(readers) read; write one that does"
    }
    return (message(new, old, oldType, "older app versions in the compatibility window"), message(old, new, newType, "newer app versions"))
  }

  /// The table's name in the schema the migrations produce now.
  var before: String { tableBefore ?? table }
  /// The table's name once the migration being planned runs.
  var after: String { tableAfter ?? before }

  /// A renamed column's two names, old and new.
  var renamedColumns: (old: String, new: String)? {
    if case .renamedColumn(let to) = kind, let column { (column, to) } else { nil }
  }

  /// The table a renamed table's view reads before and after the migration being planned, where
  /// the table was renamed again since.
  var viewOfBefore: String? = nil
  var viewOfAfter: String? = nil

  /// A renamed table's two names, old (the view's) and new (as the table is named once the
  /// migration being planned runs).
  var renamedTable: (old: String, new: String)? {
    if case .renamedTable(let to) = kind { (table, viewOfAfter ?? viewOfBefore ?? to) } else { nil }
  }

  /// The table a renamed table's view reads now.
  var viewOfNow: String? {
    if case .renamedTable(let to) = kind { viewOfBefore ?? to } else { nil }
  }

  /// Whether the contract step is due: no schema in `window` predates the migration that kept
  /// it (or there is no window any more).
  func isDue(in window: CompatibilityWindow?) -> Bool {
    guard let window else { return true }
    return migration != 0 && window.start >= migration
  }

  /// The name of a trigger (and, on PostgreSQL, its function) that keeps a renamed column in
  /// step, or that writes through a renamed table's view: `suffix` names its event.
  func triggerName(_ suffix: String = "") -> String {
    "strata_keep_\(table)" + (column.map { "_\($0)" } ?? "") + (suffix.isEmpty ? "" : "_\(suffix)")
  }

  /// The triggers that give a column whose NOT NULL waits its default.
  static let nullTriggerSuffixes = ["null_insert", "null_update"]

  /// Whether the expansion's triggers are the ones that give a column its default.
  var isDeferredNotNull: Bool {
    if case .deferred(.notNull) = kind { true } else { false }
  }

  /// The names of the triggers (and on PostgreSQL their functions) the expansion makes.
  var triggerNames: [String] {
    switch kind {
    case .renamedColumn: Self.columnTriggerSuffixes.map(triggerName)
    case .renamedTable: Self.viewTriggerSuffixes.map(triggerName)
    case .deferred(.notNull): Self.nullTriggerSuffixes.map(triggerName)
    case .droppedColumn, .droppedTable, .deferred: []
    }
  }

  /// The view that keeps a renamed table's old name writes through to it with these triggers.
  static let viewTriggerSuffixes = ["insert", "update", "delete"]

  /// The triggers of a renamed column (and on PostgreSQL their functions): one for inserts, one
  /// per name for updates.
  static let columnTriggerSuffixes = ["insert", "update_old", "update_new"]

  /// The header line that records it.
  var marker: String {
    switch kind {
    case .renamedColumn(let to):
      "\(Self.keeps)\(SQLQuoting.identifier(table)).\(SQLQuoting.identifier(column ?? "")) in step with \(SQLQuoting.identifier(to))"
    case .droppedColumn:
      "\(Self.keeps)\(SQLQuoting.identifier(table)).\(SQLQuoting.identifier(column ?? ""))"
    case .droppedTable:
      "\(Self.keeps)table \(SQLQuoting.identifier(table))"
    case .renamedTable(let to):
      "\(Self.keeps)table \(SQLQuoting.identifier(table)) as a view of \(SQLQuoting.identifier(to))"
    case .deferred(let deferral):
      column.map { "\(Self.keeps)\(SQLQuoting.identifier(table)).\(SQLQuoting.identifier($0)) \(deferral.words)" }
        ?? "\(Self.keeps)table \(SQLQuoting.identifier(table)) \(deferral.words)"
    }
  }

  private static let keeps = "keeps "

  /// What the migrations' headers record as kept, oldest first.
  static func recorded(in files: [MigrationFiles.File]) -> [Expansion] {
    files.flatMap { file in
      file.headerLines.compactMap { line in
        var expansion = parse(line)
        expansion?.migration = file.number
        return expansion
      }
    }
  }

  private static func parse(_ line: Substring) -> Expansion? {
    guard line.hasPrefix(keeps) else { return nil }
    var rest = line.dropFirst(keeps.count)
    if rest.hasPrefix("table ") {
      rest = rest.dropFirst("table ".count)
      guard let table = QuotedIdentifier.read(&rest) else { return nil }
      if rest.isEmpty { return Expansion(table: table, column: nil, kind: .droppedTable) }
      if let deferral = deferral(&rest) { return Expansion(table: table, column: nil, kind: .deferred(deferral)) }
      guard rest.hasPrefix(" as a view of ") else { return nil }
      rest = rest.dropFirst(" as a view of ".count)
      guard let to = QuotedIdentifier.read(&rest), rest.isEmpty else { return nil }
      return Expansion(table: table, column: nil, kind: .renamedTable(to: to))
    }
    guard let table = QuotedIdentifier.read(&rest), rest.first == "." else { return nil }
    rest = rest.dropFirst()
    guard let column = QuotedIdentifier.read(&rest) else { return nil }
    if rest.isEmpty { return Expansion(table: table, column: column, kind: .droppedColumn) }
    if let deferral = deferral(&rest) { return Expansion(table: table, column: column, kind: .deferred(deferral)) }
    guard rest.hasPrefix(" in step with ") else { return nil }
    rest = rest.dropFirst(" in step with ".count)
    guard let to = QuotedIdentifier.read(&rest), rest.isEmpty else { return nil }
    return Expansion(table: table, column: column, kind: .renamedColumn(to: to))
  }
}

extension Expansion {
  /// The deferral a marker's last words say, when they say one.
  fileprivate static func deferral(_ rest: inout Substring) -> Deferral? {
    guard rest.hasPrefix(" ") else { return nil }
    let words = rest.dropFirst()
    for deferral in [Deferral.unique, .notNull, .foreignKey, .checks] where words == deferral.words { return deferral }
    let index = "without the new unique index "
    guard words.hasPrefix(index) else { return nil }
    var name = words.dropFirst(index.count)
    guard let index = QuotedIdentifier.read(&name), name.isEmpty else { return nil }
    return .uniqueIndex(index)
  }
}

/// Reads SQL's double-quoted identifiers from comment lines Strata writes.
enum QuotedIdentifier {
  /// Reads a double-quoted identifier from the start of `text`, leaving the rest.
  static func read(_ text: inout Substring) -> String? {
    guard text.first == "\"" else { return nil }
    var name = ""
    var index = text.index(after: text.startIndex)
    while index < text.endIndex {
      if text[index] == "\"" {
        let next = text.index(after: index)
        guard next < text.endIndex, text[next] == "\"" else {
          text = text[next...]
          return name
        }
        name.append("\"")
        index = text.index(after: next)
      } else {
        name.append(text[index])
        index = text.index(after: index)
      }
    }
    return nil
  }
}
