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
    guard let (old, new) = expansion.renamedColumns else { return [] }
    let name = SQLQuoting.identifier(expansion.table)
    let (oldName, newName) = (SQLQuoting.identifier(old), SQLQuoting.identifier(new))
    let row = rowMatch(table)
    let fallback = expansion.newDefault.map { ", \($0.sql)" } ?? ""
    func trigger(_ suffix: String) -> String { SQLQuoting.identifier(expansion.triggerName(suffix)) }
    return [
      "UPDATE \(name) SET \(newName) = \(oldName);",
      """
      CREATE TRIGGER \(trigger("insert")) AFTER INSERT ON \(name) FOR EACH ROW
      WHEN NEW.\(oldName) IS NOT NEW.\(newName)
      BEGIN
        UPDATE \(name) SET \(newName) = coalesce(NEW.\(oldName), NEW.\(newName)\(fallback)), \(oldName) = coalesce(NEW.\(oldName), NEW.\(newName)\(fallback)) WHERE \(row);
      END;
      """,
      """
      CREATE TRIGGER \(trigger("update_old")) AFTER UPDATE OF \(oldName) ON \(name) FOR EACH ROW
      WHEN NEW.\(oldName) IS NOT OLD.\(oldName) AND NEW.\(newName) IS OLD.\(newName)
      BEGIN
        UPDATE \(name) SET \(newName) = NEW.\(oldName) WHERE \(row);
      END;
      """,
      """
      CREATE TRIGGER \(trigger("update_new")) AFTER UPDATE OF \(newName) ON \(name) FOR EACH ROW
      WHEN NEW.\(newName) IS NOT OLD.\(newName) AND NEW.\(oldName) IS OLD.\(oldName)
      BEGIN
        UPDATE \(name) SET \(oldName) = NEW.\(newName) WHERE \(row);
      END;
      """,
    ]
  }

  static func contract(_ expansion: Expansion, dropsColumn: Bool) -> [String] {
    guard let (old, _) = expansion.renamedColumns else { return [] }
    return Expansion.sqliteTriggerSuffixes.map { "DROP TRIGGER \(SQLQuoting.identifier(expansion.triggerName($0)));" }
      + (dropsColumn ? ["ALTER TABLE \(SQLQuoting.identifier(expansion.table)) DROP COLUMN \(SQLQuoting.identifier(old));"] : [])
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
