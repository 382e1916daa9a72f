import StrataSQL

/// PostgreSQL's statements for a renamed column kept under its old name for older app versions
/// (``Expansion``): the copy of its values, and a trigger that keeps the two names in step.
///
/// PostgreSQL's row triggers run before the row is written and can change it, so one trigger
/// (and its function) does what SQLite needs three for. The old name has no default while it is
/// kept, so an insert that gives it was written by it (the new name holds its default, if any),
/// and one that leaves it NULL by the new name; the other gets the value. An update of one name
/// alone is copied to the other; one that sets both is left as it is.
enum PostgreSQLKeptColumn {
  static func expand(_ expansion: Expansion) -> [String] {
    guard let (old, new) = expansion.renamedColumns else { return [] }
    let table = SQLQuoting.identifier(expansion.table)
    let (oldName, newName) = (SQLQuoting.identifier(old), SQLQuoting.identifier(new))
    let function = SQLQuoting.identifier(expansion.triggerName())
    let fallback = expansion.newDefault.map { ", \($0.sql)" } ?? ""
    // A rename that changes the type converts each way, and stops a write whose value the other
    // type would not hold exactly.
    let (oldType, newType) = (expansion.oldType?.sql ?? "", expansion.newType?.sql ?? "")
    let refusal = expansion.conversionRefusal
    func toNew(_ value: String) -> String { refusal == nil ? value : PostgreSQLConversion.converted(value, from: oldType, to: newType) }
    func toOld(_ value: String) -> String { refusal == nil ? value : PostgreSQLConversion.converted(value, from: newType, to: oldType) }
    func refuse(_ value: String, from: String, to: String, _ message: String?) -> String {
      guard let message, let lossy = PostgreSQLConversion.lossyRows(value, from: from, to: to) else { return "" }
      return "\n      IF \(lossy) THEN RAISE EXCEPTION USING MESSAGE = \(SQLQuoting.string(message)); END IF;"
    }
    let (oldValue, newValue) = ("NEW.\(oldName)", "NEW.\(newName)")
    let body = """
      BEGIN
        IF TG_OP = 'INSERT' THEN\(refuse(oldValue, from: oldType, to: newType, refusal?.toNew))\(refuse("coalesce(\(oldValue), \(newValue))", from: newType, to: oldType, refusal?.toOld))
          \(newValue) := coalesce(\(toNew(oldValue)), \(newValue)\(fallback));
          \(oldValue) := \(toOld(newValue));
        ELSIF \(oldValue) IS DISTINCT FROM OLD.\(oldName) AND \(newValue) IS NOT DISTINCT FROM OLD.\(newName) THEN\(refuse(oldValue, from: oldType, to: newType, refusal?.toNew))
          \(newValue) := \(toNew(oldValue));
        ELSIF \(newValue) IS DISTINCT FROM OLD.\(newName) AND \(oldValue) IS NOT DISTINCT FROM OLD.\(oldName) THEN\(refuse(newValue, from: newType, to: oldType, refusal?.toOld))
          \(oldValue) := \(toOld(newValue));
        END IF;
        RETURN NEW;
      END
      """
    // The body is quoted with a tag it does not contain (a name could hold `$strata$`).
    var tag = "$strata$"
    while body.contains(tag) { tag = "$strata" + String(tag.count) + "$" }
    return [
      "UPDATE \(table) SET \(newName) = \(toNew(oldName));",
      "CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS \(tag)\n\(body)\n\(tag);",
      "CREATE TRIGGER \(function) BEFORE INSERT OR UPDATE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(function)();",
    ]
  }

  static func contract(_ expansion: Expansion, dropsColumn: Bool) -> [String] {
    guard let (old, _) = expansion.renamedColumns else { return [] }
    let table = SQLQuoting.identifier(expansion.after)
    let function = SQLQuoting.identifier(expansion.triggerName())
    return [
      "DROP TRIGGER \(function) ON \(table);",
      "DROP FUNCTION \(function)();",
    ] + (dropsColumn ? ["ALTER TABLE \(table) DROP COLUMN \(SQLQuoting.identifier(old));"] : [])
  }
}
