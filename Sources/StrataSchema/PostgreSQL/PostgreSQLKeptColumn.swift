import StrataSQL

/// PostgreSQL's statements for a renamed column kept under its old name for older app versions
/// (``Expansion``): the copy of its values, and triggers that keep the two names in step.
///
/// They work as SQLite's do (``KeptColumnTriggers``): after a row is written, one trigger per
/// event updates it. The old name has no default while it is kept, so an insert that leaves it
/// NULL was written by the new name, and one that gives it by the old name (the new name holds
/// its default, if any). An update of one name alone is copied to the other; one that sets both
/// is left as it is. Triggers that run after the row, rather than before it, follow a chain of
/// renames (a name kept for one rename and renamed again): each copy is an update that the next
/// pair's trigger sees, in either direction, which triggers before the row, run in the order of
/// their names, do not.
enum PostgreSQLKeptColumn {
  static func expand(_ expansion: Expansion, in table: TableSchema?) -> [String] {
    let name = SQLQuoting.identifier(expansion.table)
    /// A trigger function and the trigger that runs it after each row `event` writes, when `condition`.
    func trigger(_ suffix: String, _ event: String, when condition: String, _ body: String) -> [String] {
      let function = SQLQuoting.identifier(expansion.triggerName(suffix))
      var tag = "$strata$"
      while body.contains(tag) { tag = "$strata" + String(tag.count) + "$" }
      return [
        "CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS \(tag)\nBEGIN\(body)\n  RETURN NULL;\nEND\n\(tag);",
        "CREATE TRIGGER \(function) AFTER \(event) ON \(name) FOR EACH ROW WHEN (\(condition)) EXECUTE FUNCTION \(function)();",
      ]
    }
    let row = rowMatch(table)
    // A column whose NOT NULL waits: the rows that hold NULL get its default, and so does a row
    // an older version writes NULL into, after it is written.
    if expansion.isDeferredNotNull, let column = expansion.column, let value = expansion.newDefault {
      let quoted = SQLQuoting.identifier(column)
      return ["UPDATE \(name) SET \(quoted) = \(value.sql) WHERE \(quoted) IS NULL;"]
        + zip(Expansion.nullTriggerSuffixes, ["INSERT", "UPDATE OF \(quoted)"]).flatMap { suffix, event in
          trigger(suffix, event, when: "NEW.\(quoted) IS NULL", "\n  UPDATE \(name) SET \(quoted) = \(value.sql) WHERE \(row);")
        }
    }
    guard let (old, new) = expansion.renamedColumns else { return [] }
    let (oldName, newName) = (SQLQuoting.identifier(old), SQLQuoting.identifier(new))
    let fallback = expansion.newDefault.map { ", \($0.sql)" } ?? ""
    // A rename that changes the type converts each way, and stops a write whose value the other
    // type would not hold exactly.
    let (oldType, newType) = (expansion.oldType?.sql ?? "", expansion.newType?.sql ?? "")
    let refusal = expansion.conversionRefusal
    func toNew(_ value: String) -> String { refusal == nil ? value : PostgreSQLConversion.converted(value, from: oldType, to: newType) }
    func toOld(_ value: String) -> String { refusal == nil ? value : PostgreSQLConversion.converted(value, from: newType, to: oldType) }
    func refuse(_ value: String, from: String, to: String, _ message: String?) -> String {
      guard let message, let lossy = PostgreSQLConversion.lossyRows(value, from: from, to: to) else { return "" }
      return "\n  IF \(lossy) THEN RAISE EXCEPTION USING MESSAGE = \(SQLQuoting.string(message)); END IF;"
    }
    let (oldValue, newValue) = ("NEW.\(oldName)", "NEW.\(newName)")
    let newOrDefault = expansion.newDefault.map { "coalesce(\(newValue), \($0.sql))" } ?? newValue
    return ["UPDATE \(name) SET \(newName) = \(toNew(oldName));"]
      + trigger(
        "insert", "INSERT", when: "\(oldValue) IS DISTINCT FROM \(newValue)",
        refuse(oldValue, from: oldType, to: newType, refusal?.toNew)
          + refuse("coalesce(\(oldValue), \(newValue))", from: newType, to: oldType, refusal?.toOld)
          + "\n  UPDATE \(name) SET \(newName) = coalesce(\(toNew(oldValue)), \(newValue)\(fallback)), \(oldName) = coalesce(\(oldValue), \(toOld(newOrDefault))) WHERE \(row);")
      + trigger(
        "update_old", "UPDATE OF \(oldName)", when: "\(oldValue) IS DISTINCT FROM OLD.\(oldName) AND \(newValue) IS NOT DISTINCT FROM OLD.\(newName)",
        refuse(oldValue, from: oldType, to: newType, refusal?.toNew) + "\n  UPDATE \(name) SET \(newName) = \(toNew(oldValue)) WHERE \(row);")
      + trigger(
        "update_new", "UPDATE OF \(newName)", when: "\(newValue) IS DISTINCT FROM OLD.\(newName) AND \(oldValue) IS NOT DISTINCT FROM OLD.\(oldName)",
        refuse(newValue, from: newType, to: oldType, refusal?.toOld) + "\n  UPDATE \(name) SET \(oldName) = \(toOld(newValue)) WHERE \(row);")
  }

  static func contract(_ expansion: Expansion, dropsColumn: Bool) -> [String] {
    let table = SQLQuoting.identifier(expansion.after)
    let triggers = expansion.triggerNames.flatMap { name in
      ["DROP TRIGGER \(SQLQuoting.identifier(name)) ON \(table);", "DROP FUNCTION \(SQLQuoting.identifier(name))();"]
    }
    guard let (old, _) = expansion.renamedColumns else { return triggers }
    return triggers + (dropsColumn ? ["ALTER TABLE \(table) DROP COLUMN \(SQLQuoting.identifier(old));"] : [])
  }

  /// The condition that finds the row a trigger ran for, by its primary key.
  private static func rowMatch(_ table: TableSchema?) -> String {
    let key = table.map { table in
      table.compositePrimaryKey.isEmpty ? table.columns.filter { $0.primaryKey != nil }.map(\.name) : table.compositePrimaryKey
    } ?? []
    return key.map { "\(SQLQuoting.identifier($0)) = NEW.\(SQLQuoting.identifier($0))" }.joined(separator: " AND ")
  }
}
