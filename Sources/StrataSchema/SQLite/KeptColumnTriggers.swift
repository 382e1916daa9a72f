import StrataSQL

/// SQLite's statements for a renamed column kept under its old name for older app versions
/// (``Expansion``): the copy of its values, and the triggers that keep the two names in step.
///
/// SQLite's triggers cannot change the row being written, so they run after it and update it.
/// The old name has no default while it is kept, so an insert that leaves it NULL was written by
/// the new name, and its value is copied to the old one; an insert that gives the old name was
/// written by it (the new name holds its default, if any), and its value is copied to the new
/// one. An update of one name alone is copied to the other; one that sets both is left as it is. SQLite does not fire a
/// trigger from itself (`recursive_triggers` is off unless an app turns it on), and each
/// trigger's `WHEN` is false for the update the other makes, so the pair ends there.
enum KeptColumnTriggers {
  static func expand(_ expansion: Expansion, in table: TableSchema?) -> [String] {
    if expansion.isDeferredNotNull { return defaults(expansion, in: table) }
    guard let (old, new) = expansion.renamedColumns else { return [] }
    let name = SQLQuoting.identifier(expansion.table)
    let (oldName, newName) = (SQLQuoting.identifier(old), SQLQuoting.identifier(new))
    let row = rowMatch(table)
    let fallback = expansion.newDefault.map { ", \($0.sql)" } ?? ""
    func trigger(_ suffix: String) -> String { SQLQuoting.identifier(expansion.triggerName(suffix)) }
    // A rename that changes the type converts each way, and stops a write whose value the other
    // type would not hold exactly.
    let refusal = expansion.conversionRefusal
    func toNew(_ value: String) -> String { refusal == nil ? value : SQLConversion.converted(value, to: expansion.newType!) }
    func toOld(_ value: String) -> String { refusal == nil ? value : SQLConversion.converted(value, to: expansion.oldType!) }
    func refuse(_ value: String, to type: SQLType?, _ message: String?) -> String {
      guard let type, let message else { return "" }
      return "\n  SELECT RAISE(ABORT, \(SQLQuoting.string(message))) WHERE NOT \(SQLConversion.isExact(value, to: type));"
    }
    let oldValue = "NEW.\(oldName)", newValue = "NEW.\(newName)"
    let newOrDefault = expansion.newDefault.map { "coalesce(\(newValue), \($0.sql))" } ?? newValue
    return copyCheck(expansion, table: table) + [
      "UPDATE \(name) SET \(newName) = \(toNew(oldName));",
      """
      CREATE TRIGGER \(trigger("insert")) AFTER INSERT ON \(name) FOR EACH ROW
      WHEN \(oldValue) IS NOT \(newValue)
      BEGIN\(refuse(oldValue, to: expansion.newType, refusal?.toNew))\(refuse("coalesce(\(oldValue), \(newValue))", to: expansion.oldType, refusal?.toOld))
        UPDATE \(name) SET \(newName) = coalesce(\(toNew(oldValue)), \(newValue)\(fallback)), \(oldName) = coalesce(\(oldValue), \(toOld(newOrDefault))) WHERE \(row);
      END;
      """,
      """
      CREATE TRIGGER \(trigger("update_old")) AFTER UPDATE OF \(oldName) ON \(name) FOR EACH ROW
      WHEN \(oldValue) IS NOT OLD.\(oldName) AND \(newValue) IS OLD.\(newName)
      BEGIN\(refuse(oldValue, to: expansion.newType, refusal?.toNew))
        UPDATE \(name) SET \(newName) = \(toNew(oldValue)) WHERE \(row);
      END;
      """,
      """
      CREATE TRIGGER \(trigger("update_new")) AFTER UPDATE OF \(newName) ON \(name) FOR EACH ROW
      WHEN \(newValue) IS NOT OLD.\(newName) AND \(oldValue) IS OLD.\(oldName)
      BEGIN\(refuse(newValue, to: expansion.oldType, refusal?.toOld))
        UPDATE \(name) SET \(oldName) = \(toOld(newValue)) WHERE \(row);
      END;
      """,
    ]
  }

  /// The check that stops the migration, naming the row, when a value of the old name does not
  /// convert exactly to the new name's type.
  private static func copyCheck(_ expansion: Expansion, table: TableSchema?) -> [String] {
    guard expansion.conversionRefusal != nil, let table, let (old, _) = expansion.renamedColumns, let type = expansion.newType else { return [] }
    return [
      MigrationGuard.lossyConversion(
        in: table, column: old, to: type, consent: "keep the old type under the new name, and convert in a later release").sql
    ]
  }

  /// A column whose NOT NULL waits: the rows that hold NULL get its default, and so does a row
  /// an older version writes NULL into, after it is written.
  private static func defaults(_ expansion: Expansion, in table: TableSchema?) -> [String] {
    guard let column = expansion.column, let value = expansion.newDefault else { return [] }
    let (name, quoted) = (SQLQuoting.identifier(expansion.table), SQLQuoting.identifier(column))
    let row = rowMatch(table)
    return ["UPDATE \(name) SET \(quoted) = \(value.sql) WHERE \(quoted) IS NULL;"]
      + zip(Expansion.nullTriggerSuffixes, ["INSERT", "UPDATE OF \(quoted)"]).map { suffix, event in
        """
        CREATE TRIGGER \(SQLQuoting.identifier(expansion.triggerName(suffix))) AFTER \(event) ON \(name) FOR EACH ROW
        WHEN NEW.\(quoted) IS NULL
        BEGIN
          UPDATE \(name) SET \(quoted) = \(value.sql) WHERE \(row);
        END;
        """
      }
  }

  static func contract(_ expansion: Expansion, dropsColumn: Bool) -> [String] {
    if expansion.isDeferredNotNull { return expansion.triggerNames.map { "DROP TRIGGER \(SQLQuoting.identifier($0));" } }
    guard let (old, _) = expansion.renamedColumns else { return [] }
    return Expansion.columnTriggerSuffixes.map { "DROP TRIGGER \(SQLQuoting.identifier(expansion.triggerName($0)));" }
      + (dropsColumn ? ["ALTER TABLE \(SQLQuoting.identifier(expansion.after)) DROP COLUMN \(SQLQuoting.identifier(old));"] : [])
  }

  /// The condition that finds the row a trigger fires for: by its key, or its rowid.
  private static func rowMatch(_ table: TableSchema?) -> String {
    let key = table.map { table in
      table.compositePrimaryKey.isEmpty ? table.columns.filter { $0.primaryKey != nil }.map(\.name) : table.compositePrimaryKey
    } ?? []
    guard !key.isEmpty else { return "rowid = NEW.rowid" }
    return key.map { "\(SQLQuoting.identifier($0)) = NEW.\(SQLQuoting.identifier($0))" }.joined(separator: " AND ")
  }
}
