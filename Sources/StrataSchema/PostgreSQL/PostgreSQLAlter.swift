import StrataSQL

/// What SQLite must rebuild a table for, PostgreSQL changes in place: a column's type
/// (`ALTER COLUMN … TYPE … USING`), nullability, default, uniqueness and reference, and columns
/// added and dropped. Checks come first and stop the migration, before anything changes, when a
/// row holds a value the change would not keep; each names the table, the column and the row.
struct PostgreSQLAlter {
  let rebuild: SchemaChanges.Rebuild
  /// The names of the table's constraints as the server has them (``SchemaIntrospector/Introspection/constraintNames``).
  let constraintNames: [String: String]
  /// The views the migration does not drop itself, which PostgreSQL keeps from a type change or
  /// a drop of a column they read.
  let views: [SchemaObject]

  /// The checks, then one `ALTER TABLE` per change.
  var statements: [String] {
    let table = rebuild.table
    let current = rebuild.current
    let quotedTable = SQLQuoting.identifier(table.name)
    let currentColumns = Dictionary(current.columns.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    let sources = Dictionary(rebuild.sources.map { (SQLName.folded($0.column), $0) }, uniquingKeysWith: { first, _ in first })
    var checks: [String] = []
    var alters: [String] = []
    func alter(_ clause: String) { alters.append("ALTER TABLE \(quotedTable) \(clause);") }

    // Table constraints that go are dropped first, by the name the server gave them; those that
    // come are added after the columns change.
    let kept = Set(table.constraints)
    for constraint in current.constraints where !kept.contains(constraint) {
      let key = SchemaIntrospector.Introspection.constraintKey(table: current.name, constraint)
      if let name = constraintNames[key] { alter("DROP CONSTRAINT \(SQLQuoting.identifier(name))") }
    }
    for column in rebuild.droppedColumns + rebuild.retiredColumns { alter("DROP COLUMN \(SQLQuoting.identifier(column))") }
    // A generated column the model no longer has holds nothing of its own.
    for column in current.columns where column.isGenerated && table.column(named: column.name) == nil {
      alter("DROP COLUMN \(SQLQuoting.identifier(column.name))")
    }
    for column in table.columns {
      let name = SQLQuoting.identifier(column.name)
      guard let existing = currentColumns[SQLName.folded(column.name)] else {
        if let backfill = sources[SQLName.folded(column.name)]?.backfill {
          // The rows the table has get their value (`@Backfill`) before the column is NOT NULL.
          var nullable = column
          nullable.isNotNull = false
          alter("ADD COLUMN \(PostgreSQLRenderer.columnDefinition(nullable))")
          alters.append("UPDATE \(quotedTable) SET \(name) = (\(backfill));")
          alter("ALTER COLUMN \(name) SET NOT NULL")
        } else {
          alter("ADD COLUMN \(PostgreSQLRenderer.columnDefinition(column))")
        }
        continue
      }
      if column.isGenerated || existing.isGenerated {
        if column.generated != existing.generated {
          // A generated column's expression cannot change in place; it holds nothing of its own.
          alter("DROP COLUMN \(name)")
          alter("ADD COLUMN \(PostgreSQLRenderer.columnDefinition(column))")
        }
        continue
      }
      let source = sources[SQLName.folded(column.name)]
      if existing.type != column.type {
        // Every value reads as text; any other type may refuse one.
        if column.type.sql != "text" { checks.append(conversionCheck(of: existing, to: column)) }
        if source?.allowsLossyConversion != true, let check = lossyConversion(of: existing, to: column) { checks.append(check) }
        // A value that converts may still not be one the model reads: JSON of another shape.
        if let reading = rebuild.guards.first(where: { SQLName.folded($0.column) == SQLName.folded(existing.name) && $0.readableAs != nil })?.readableAs,
          case .json(let shape) = reading.format, shape != .any
        {
          let converted = PostgreSQLConversion.converted(name, from: existing.type.sql, to: column.type.sql)
          checks.append(
            check(
              table, rows: "\(name) IS NOT NULL AND jsonb_typeof(\(converted)) <> '\(shape.rawValue)'",
              message: "holds a value in \(qualified(table, existing)) which the model cannot read as \(reading.storedType) (JSON that is not an \(shape.rawValue)): the migration changes nothing. Update or delete the row in an earlier migration, or keep the old type and add a new property"))
        }
        // The old default would be cast with the column, and may not cast ('' to bigint): it goes
        // first, and the new one comes after.
        if existing.defaultValue != nil { alter("ALTER COLUMN \(name) DROP DEFAULT") }
        alter(
          "ALTER COLUMN \(name) TYPE \(column.type.sql) USING "
            + PostgreSQLConversion.converted(name, from: existing.type.sql, to: column.type.sql))
        if let value = column.defaultValue { alter("ALTER COLUMN \(name) SET DEFAULT \(value.sql)") }
      } else if existing.defaultValue != column.defaultValue {
        alter(column.defaultValue.map { "ALTER COLUMN \(name) SET DEFAULT \($0.sql)" } ?? "ALTER COLUMN \(name) DROP DEFAULT")
      }
      if column.isNotNull, !existing.isNotNull {
        if let value = source?.nullsBecome {
          if column.isUnique {
            checks.append(
              check(
                table, rows: "\(name) IS NULL AND (SELECT count(*) FROM \(quotedTable) WHERE \(name) IS NULL OR \(name) = \(value.sql)) > 1",
                message: "has no \(name) (NULL) and would get the default \(value.sql), but \(qualified(table, column)) is UNIQUE and another row would hold it too: give those rows distinct values in an earlier migration"))
          }
          alters.append("UPDATE \(quotedTable) SET \(name) = \(value.sql) WHERE \(name) IS NULL;")
        } else {
          checks.append(
            check(
              table, rows: "\(name) IS NULL",
              message: "has no \(name) (NULL), so \(qualified(table, column)) cannot become NOT NULL: give the property a default, which those rows get, or update them in an earlier migration"))
        }
        alter("ALTER COLUMN \(name) SET NOT NULL")
      } else if !column.isNotNull, existing.isNotNull, column.primaryKey == nil {
        alter("ALTER COLUMN \(name) DROP NOT NULL")
      }
      if column.isUnique, !existing.isUnique {
        checks.append(
          check(
            table, rows: "\(name) IN (SELECT \(name) FROM \(quotedTable) GROUP BY \(name) HAVING count(*) > 1)",
            message: "shares its \(name) with another row, so \(qualified(table, column)) cannot become UNIQUE: remove the duplicates in an earlier migration"))
        alter("ADD UNIQUE (\(name))")
      } else if !column.isUnique, existing.isUnique {
        alters.append(dropConstraint(of: table.name, kind: "u", column: column.name))
      }
      if column.references != existing.references {
        if existing.references != nil { alters.append(dropConstraint(of: table.name, kind: "f", column: column.name)) }
        if let reference = column.references {
          // NOT VALID takes the lock only to add the constraint; VALIDATE then reads the rows
          // without blocking writes.
          alter("ADD FOREIGN KEY (\(name)) " + SQLRenderer.references(reference) + " NOT VALID")
          alters.append(validateConstraint(of: table.name, kind: "f", column: column.name))
        }
      }
    }
    // Rows a new or changed enum rule would refuse take the enum's default case, once the
    // columns are there; without one, they stop the migration first.
    for rule in rebuild.caseRules {
      let existing = { (column: String) in currentColumns[SQLName.folded(column)] != nil ? SQLQuoting.identifier(column) : "NULL" }
      guard let defaultCase = rule.defaultCase else {
        checks.append(
          check(
            table, rows: "NOT (\(rule.condition(existing)))",
            message: "would hold no single, whole case of '\(rule.property)' (\(rule.swiftType)) in \(rule.columns.map(SQLQuoting.identifier).joined(separator: ", ")): the migration changes nothing. Give the property a default case, which such rows get, or update the rows in an earlier migration"))
        continue
      }
      let assignments = rule.columns.map { "\(SQLQuoting.identifier($0)) = \(defaultCase[$0] ?? "NULL")" }
      alters.append(
        "UPDATE \(quotedTable) SET \(assignments.joined(separator: ", ")) WHERE NOT (\(rule.condition(SQLQuoting.identifier)));")
    }
    let before = Set(current.constraints)
    for constraint in table.constraints where !before.contains(constraint) {
      if let check = constraint.check, !CaseRule.isRuleCheck(check, of: table.name) {
        checks.append(
          self.check(
            table, rows: "NOT (\(check.expression))",
            message: "breaks the new CHECK (\(check.expression)): the migration changes nothing. Update the row in an earlier migration, or change the check"))
      }
      alter("ADD " + SQLRenderer.constraint(constraint))
    }
    // Indexes: the models' that changed or are new are made; the models' that are gone are
    // dropped; the user's are left as they are.
    let wanted = Dictionary(table.indexes.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    let existing = Dictionary(current.indexes.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    for index in current.indexes where rebuild.conventionalIndexes.contains(index.name) && wanted[SQLName.folded(index.name)] != index {
      alters.append("DROP INDEX \(SQLQuoting.identifier(index.name));")
    }
    for index in table.indexes {
      let before = existing[SQLName.folded(index.name)]
      if before == index { continue }
      if let before, !rebuild.conventionalIndexes.contains(before.name) { continue }
      alters.append(PostgreSQLRenderer.createIndex(index))
    }
    // A view that reads the table holds on to its columns' types: it is dropped before and
    // created again, as it was, after.
    let changesColumns = !rebuild.droppedColumns.isEmpty || !rebuild.retiredColumns.isEmpty || table.columns.contains { column in
      currentColumns[SQLName.folded(column.name)].map { $0.type != column.type || $0.generated != column.generated } ?? false
    }
    let dependents = changesColumns ? views.filter { $0.kind == .view && $0.uses(table.name) } : []
    return checks + dependents.flatMap(SQLRenderer.drop) + alters + dependents.map { $0.sql + ";" }
  }

  /// What the statements do to a table in use: a type change rewrites it (except between types
  /// stored alike), and NOT NULL and UNIQUE read every row, under a lock that blocks writes.
  var liveServerNotes: [String] {
    let table = SQLQuoting.identifier(rebuild.table.name)
    let current = Dictionary(rebuild.current.columns.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    var notes: [String] = []
    for column in rebuild.table.columns {
      guard let existing = current[SQLName.folded(column.name)] else { continue }
      let name = SQLQuoting.identifier(column.name)
      if existing.type != column.type {
        notes.append("On a live server: changing the type of \(table).\(name) rewrites every row under a lock that blocks reads and writes until it commits.")
      }
      if column.isNotNull, !existing.isNotNull {
        notes.append("On a live server: SET NOT NULL on \(table).\(name) reads every row while it blocks writes.")
      }
      if column.isUnique, !existing.isUnique {
        notes.append("On a live server: UNIQUE on \(table).\(name) builds an index while it blocks writes.")
      }
    }
    return notes
  }

  /// A check that stops on the first value the new type cannot read, naming its row in the
  /// model's words rather than leaving it to the cast's own error. The whole column is cast at
  /// once first; only when that fails are the rows tried one by one to find the value.
  private func conversionCheck(of existing: ColumnSchema, to column: ColumnSchema) -> String {
    let table = rebuild.current
    let name = SQLQuoting.identifier(existing.name)
    let quotedTable = SQLQuoting.identifier(table.name)
    let type = column.type.sql
    let (key, keyName) = Self.key(of: table)
    let message = " in \(qualified(table, existing)), which does not convert to \(type): the migration changes nothing. Update the value in an earlier migration, or keep the old type and add a new property"
    return doBlock(
      """
      DECLARE offending record;
      BEGIN
        PERFORM \(PostgreSQLConversion.converted(name, from: existing.type.sql, to: type)) FROM \(quotedTable);
      EXCEPTION WHEN others THEN
        FOR offending IN SELECT (\(key))::text AS key, \(name) AS value FROM \(quotedTable) WHERE \(name) IS NOT NULL LOOP
          BEGIN
            PERFORM \(PostgreSQLConversion.converted("offending.value", from: existing.type.sql, to: type));
          EXCEPTION WHEN others THEN
            RAISE EXCEPTION '%', \(SQLQuoting.string(MigrationGuard.prefix + "\(quotedTable): \(keyName)")) || offending.key || ' holds ' || quote_literal(left(offending.value::text, 60)) || \(SQLQuoting.string(message));
          END;
        END LOOP;
        RAISE;
      END
      """)
  }

  /// A check that stops on a value a type change would not keep as it is: a fraction that an
  /// integer rounds, a number that becomes bytes.
  private func lossyConversion(of existing: ColumnSchema, to column: ColumnSchema) -> String? {
    let name = SQLQuoting.identifier(existing.name)
    let to = column.type.sql
    guard let rows = PostgreSQLConversion.lossyRows(name, from: existing.type.sql, to: to) else { return nil }
    return check(
      rebuild.current, rows: rows,
      message: (rows.hasSuffix("IS NOT NULL")
        ? "holds a value in \(qualified(rebuild.current, existing)), which becomes its text's bytes as \(to)"
        : "holds a fraction in \(qualified(rebuild.current, existing)), which becomes a rounded \(to)")
        + ": the migration changes nothing. Update the value in an earlier migration, or mark the property // @AllowLossyConversion to convert it")
  }

  /// The check that a column's values are ones the model reads as `storedType`, or nil when the
  /// column's PostgreSQL type says so already.
  static func readableCheck(
    _ check: MigrationGuard, format: ValueFormat, storedType: String, in current: SchemaIntrospector.Introspection
  ) -> String? {
    guard let table = current.schema.tables.first(where: { SQLName.folded($0.name) == SQLName.folded(check.table) }) else { return nil }
    let column = SQLQuoting.identifier(check.column)
    let rows: String
    switch format {
    case .integers(let range): rows = "\(column) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
    case .oneOf(let values): rows = "\(column) NOT IN (\(values.map(\.sql).joined(separator: ", ")))"
    case .uuidText, .dateText, .uuidBytes, .json(.any): return nil
    case .json(let shape): rows = "jsonb_typeof(\(column)) <> '\(shape.rawValue)'"
    }
    return Self.check(
      table, rows: rows,
      message: "holds a value in \(SQLQuoting.identifier(table.name)).\(column) which the model cannot read as \(storedType): the migration changes nothing. Update or delete the row in an earlier migration, or keep the old type and add a new property")
  }

  private func check(_ table: TableSchema, rows: String, message: String) -> String {
    Self.check(table, rows: rows, message: message)
  }

  /// `DO` block that stops the migration when a row of `table` matches `rows`, naming the row by
  /// its key (or its `ctid`).
  private static func check(_ table: TableSchema, rows: String, message: String) -> String {
    let (key, keyName) = Self.key(of: table)
    let body = """
      DECLARE offending text;
      BEGIN
        SELECT (\(key))::text INTO offending FROM \(SQLQuoting.identifier(table.name)) WHERE \(rows) LIMIT 1;
        IF FOUND THEN
          RAISE EXCEPTION '%', \(SQLQuoting.string(MigrationGuard.prefix + "\(SQLQuoting.identifier(table.name)): \(keyName)")) || offending || \(SQLQuoting.string(" " + message));
        END IF;
      END
      """
    return doBlock(body)
  }

  /// The SQL that names a row of `table` (its key, or its `ctid`), and the words before it.
  private static func key(of table: TableSchema) -> (sql: String, words: String) {
    if let key = table.columns.first(where: { $0.primaryKey != nil }) {
      return (SQLQuoting.identifier(key.name), "the row whose \(SQLQuoting.identifier(key.name)) is ")
    }
    if !table.compositePrimaryKey.isEmpty {
      return (
        table.compositePrimaryKey.map { SQLQuoting.identifier($0) + "::text" }.joined(separator: " || ', ' || "),
        "the row whose \(table.compositePrimaryKey.map(SQLQuoting.identifier).joined(separator: ", ")) is ")
    }
    return ("ctid", "the row ")
  }

  /// Drops the constraint of `kind` (`u`, `f`) on `column`, whatever PostgreSQL named it.
  private func dropConstraint(of table: String, kind: String, column: String) -> String {
    doBlock(
      "BEGIN\n  EXECUTE (SELECT format('ALTER TABLE %I DROP CONSTRAINT %I', \(SQLQuoting.string(table)), conname)\n"
        + constraintLookup(of: table, kind: kind, column: column) + ");\nEND")
  }

  /// Validates the `NOT VALID` constraint of `kind` on `column`.
  private func validateConstraint(of table: String, kind: String, column: String) -> String {
    doBlock(
      "BEGIN\n  EXECUTE (SELECT format('ALTER TABLE %I VALIDATE CONSTRAINT %I', \(SQLQuoting.string(table)), conname)\n"
        + constraintLookup(of: table, kind: kind, column: column) + ");\nEND")
  }

  private func constraintLookup(of table: String, kind: String, column: String) -> String {
    let relation = "to_regclass(quote_ident(\(SQLQuoting.string(table))))"
    return "    FROM pg_constraint WHERE conrelid = \(relation) AND contype = '\(kind)'\n"
      + "      AND conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = \(relation) AND attname = \(SQLQuoting.string(column)))]::int2[]"
  }

  /// `DO $tag$ … $tag$;` with a tag the body does not contain, so no name in it ends the block.
  private func doBlock(_ body: String) -> String { Self.doBlock(body) }

  private static func doBlock(_ body: String) -> String {
    var tag = "$strata$"
    var counter = 0
    while body.contains(tag) {
      counter += 1
      tag = "$strata\(counter)$"
    }
    return "DO \(tag)\n\(body)\n\(tag);"
  }

  private func qualified(_ table: TableSchema, _ column: ColumnSchema) -> String {
    "\(SQLQuoting.identifier(table.name)).\(SQLQuoting.identifier(column.name))"
  }
}
