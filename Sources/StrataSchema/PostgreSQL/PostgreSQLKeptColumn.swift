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
    let body = """
      BEGIN
        IF TG_OP = 'INSERT' THEN
          NEW.\(newName) := coalesce(NEW.\(oldName), NEW.\(newName)\(fallback));
          NEW.\(oldName) := NEW.\(newName);
        ELSIF NEW.\(oldName) IS DISTINCT FROM OLD.\(oldName) AND NEW.\(newName) IS NOT DISTINCT FROM OLD.\(newName) THEN
          NEW.\(newName) := NEW.\(oldName);
        ELSIF NEW.\(newName) IS DISTINCT FROM OLD.\(newName) AND NEW.\(oldName) IS NOT DISTINCT FROM OLD.\(oldName) THEN
          NEW.\(oldName) := NEW.\(newName);
        END IF;
        RETURN NEW;
      END
      """
    // The body is quoted with a tag it does not contain (a name could hold `$strata$`).
    var tag = "$strata$"
    while body.contains(tag) { tag = "$strata" + String(tag.count) + "$" }
    return [
      "UPDATE \(table) SET \(newName) = \(oldName);",
      "CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS \(tag)\n\(body)\n\(tag);",
      "CREATE TRIGGER \(function) BEFORE INSERT OR UPDATE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(function)();",
    ]
  }

  static func contract(_ expansion: Expansion, dropsColumn: Bool) -> [String] {
    guard let (old, _) = expansion.renamedColumns else { return [] }
    let table = SQLQuoting.identifier(expansion.table)
    let function = SQLQuoting.identifier(expansion.triggerName())
    return [
      "DROP TRIGGER \(function) ON \(table);",
      "DROP FUNCTION \(function)();",
    ] + (dropsColumn ? ["ALTER TABLE \(table) DROP COLUMN \(SQLQuoting.identifier(old));"] : [])
  }
}
