import StrataSQL

/// Writes a migration: a header that says in plain language what it does and what data it can
/// lose, then the statements, in an order that applies: renames, dropped indexes and tables,
/// rebuilds, dropped columns, new tables, new columns, new indexes.
struct MigrationRenderer {
  let renames: RenamePlan
  let changes: SchemaChanges
  /// The schema after the renames, for the SQL of the indexes, views and triggers a rebuild
  /// recreates.
  let current: SchemaIntrospector.Introspection
  /// The database's spelling of each step.
  var dialect: any SchemaDialect = SQLiteDialect()
  /// The compatibility window the migration is written under, whose start its header records.
  var window: CompatibilityWindow?

  /// Every step, renames first, in the order the migration runs them.
  var steps: [SchemaChange] { SchemaChange.steps(renames: renames, changes: changes) }

  /// One line per change, for the header and the command's output.
  var summary: [String] { changeLines.map(\.line) }

  /// Each change in plain words, with the table it changes.
  var changeLines: [(table: String, line: String)] {
    var lines: [(table: String, line: String)] = []
    let steps = steps
    let droppedTables = steps.compactMap { step -> TableSchema? in
      if case .dropTable(let table) = step { table } else { nil }
    }
    for step in steps {
      lines += self.lines(for: step, droppedTables: droppedTables)
    }
    return lines
  }

  /// The renames in plain words, one line each, with the table each changes.
  private static func lines(for renames: RenamePlan) -> [(table: String, line: String)] {
    func caseOnly(_ from: String, _ to: String) -> String {
      SQLName.folded(from) == SQLName.folded(to) ? " (only the case changes: SQLite compares names ignoring case, so queries read it either way)" : ""
    }
    var lines: [(table: String, line: String)] = []
    for rename in renames.tables {
      lines.append(
        (rename.to, "rename table \(SQLQuoting.identifier(rename.from)) to \(SQLQuoting.identifier(rename.to))" + caseOnly(rename.from, rename.to)))
    }
    for (table, column) in renames.droppedColumns {
      lines.append(
        (table, "drop column \(SQLQuoting.identifier(column)) of \(SQLQuoting.identifier(table)), deleting its values, for the column renamed to its name"))
    }
    for rename in renames.columns {
      lines.append(
        (rename.table, "rename column \(SQLQuoting.identifier(rename.from)) of \(SQLQuoting.identifier(rename.table)) to \(SQLQuoting.identifier(rename.to))" + caseOnly(rename.from, rename.to)))
    }
    return lines
  }

  /// A step in plain words, with the table it changes: a line per rename, one line otherwise.
  private func lines(for step: SchemaChange, droppedTables: [TableSchema]) -> [(table: String, line: String)] {
    switch step {
    case .renames(let plan):
      return Self.lines(for: plan)
    case .check(let check):
      return [(check.table, "check \(SQLQuoting.identifier(check.table)).\(SQLQuoting.identifier(check.column)), changing nothing: fails, naming the row, if \(check.condition)")]
    case .dropIndex(let index):
      return [(index.table, "drop index \(SQLQuoting.identifier(index.name))")]
    case .dropTable(let table):
      var line = "drop table \(SQLQuoting.identifier(table.name)), deleting its rows"
      let children = droppedTables.filter { child in
        child.columns.contains { $0.references.map { SQLName.folded($0.table) == SQLName.folded(table.name) } ?? false }
          && SQLName.folded(child.name) != SQLName.folded(table.name)
      }
      if !children.isEmpty {
        line += " (the rows of \(children.map { SQLQuoting.identifier($0.name) }.joined(separator: ", ")) that reference them are dropped with their table)"
      }
      return [(table.name, line)]
    case .rebuild(let rebuild):
      var line = dialect.changing(table: rebuild.table.name).line + ", because \(rebuild.reasons.joined(separator: ", "))"
      let filled = rebuild.sources.filter { $0.nullsBecome != nil }.map(\.column)
      if !filled.isEmpty {
        line += "; rows whose \(filled.map(SQLQuoting.identifier).joined(separator: ", ")) is NULL get the default"
      }
      let lossy = rebuild.sources.compactMap { source in
        source.conversion.flatMap { source.allowsLossyConversion ? "\(SQLQuoting.identifier(source.column)) to \($0.sql)" : nil }
      }
      if !lossy.isEmpty {
        line += "; converts \(lossy.joined(separator: ", ")) with SQLite's CAST even where a value changes, as // @AllowLossyConversion allows"
      }
      if !rebuild.lostConstraints.isEmpty {
        line += "; drops \(rebuild.lostConstraints.joined(separator: ", ")), which the model does not say"
      }
      if !rebuild.retiredColumns.isEmpty {
        line += "; drops \(rebuild.retiredColumns.map(SQLQuoting.identifier).joined(separator: ", ")), kept for older app versions until now, whose values the renamed column holds"
      }
      if !rebuild.droppedColumns.isEmpty {
        line += "; drops column \(rebuild.droppedColumns.map(SQLQuoting.identifier).joined(separator: ", ")), deleting its values"
      }
      if !rebuild.guards.isEmpty {
        line += "; fails, changing nothing and naming the row, if \(rebuild.guards.map(\.condition).joined(separator: ", or "))"
      }
      return [(rebuild.table.name, line)]
    case .dropColumn(let table, let column):
      return [(table, "drop column \(SQLQuoting.identifier(column)) of \(SQLQuoting.identifier(table)), deleting its values")]
    case .createTable(let table):
      return [(table.name, "create table \(SQLQuoting.identifier(table.name))" + (table.indexes.isEmpty ? "" : " and its indexes"))]
    case .addColumn(let table, let column):
      return [(table, "add column \(SQLQuoting.identifier(column.name)) to \(SQLQuoting.identifier(table))")]
    case .createIndex(let index):
      return [(index.table, "create index \(SQLQuoting.identifier(index.name))")]
    case .dropObject(let object, let holdsData):
      return [(object.name, "drop \(object.kind.description) \(SQLQuoting.identifier(object.name))" + (holdsData ? ", deleting its rows" : ""))]
    case .createObject(.syncCapture(let capture)):
      return [(capture.table, "record every write to \(SQLQuoting.identifier(capture.table)) for sync, with triggers \(SQLQuoting.identifier(SyncTables.trigger(capture.table, "*")))")]
    case .createObject(let object):
      var line = "create \(object.kindDescription) \(SQLQuoting.identifier(object.name))"
      if case .fullTextIndex(let index) = object, let content = index.content {
        line += " over \(SQLQuoting.identifier(content.table)), with the triggers that keep it in sync, and index the rows \(SQLQuoting.identifier(content.table)) has"
      }
      return [(object.name, line)]
    case .expand(let expansion):
      let table = SQLQuoting.identifier(expansion.table)
      switch expansion.kind {
      case .renamedColumn(let to):
        let old = SQLQuoting.identifier(expansion.column ?? "")
        return [
          (expansion.table,
           "copy \(old) of \(table) to \(SQLQuoting.identifier(to)), and keep \(old) for older app versions, which still read and write it: triggers keep the two in step, whichever one a version writes")
        ]
      case .droppedColumn:
        return [
          (expansion.table,
           "keep column \(SQLQuoting.identifier(expansion.column ?? "")) of \(table), which the model no longer reads, for older app versions (rows this version inserts get its default, or NULL)")
        ]
      case .droppedTable:
        return [(expansion.table, "keep table \(table), which no model declares any more, for older app versions")]
      case .deferred(let deferral):
        let place = expansion.column.map { "\(table).\(SQLQuoting.identifier($0))" } ?? table
        if deferral == .notNull, let value = expansion.newDefault {
          return [
            (expansion.table,
             "keep \(place) \(deferral.words), which older app versions may write NULL into, until the window moves: its rows that hold NULL, and those older versions write, get \(value.sql)")
          ]
        }
        return [
          (expansion.table,
           "keep \(place) \(deferral.words), which older app versions may write rows it refuses, until the window moves")
        ]
      case .renamedTable(let to):
        return [
          (to,
           "keep \(table) for older app versions, which still read and write it by that name, as a view of \(SQLQuoting.identifier(to)) that writes through to it")
        ]
      }
    case .contract(let expansion, let dropsColumn):
      if expansion.isDeferredNotNull {
        return [
          (expansion.after,
           "drop the triggers that gave \(SQLQuoting.identifier(expansion.after)).\(SQLQuoting.identifier(expansion.column ?? "")) its default where older app versions wrote NULL (migration \(CompatibilityWindow.number(expansion.migration)) made them; no schema in the window writes NULL now)")
        ]
      }
      if let (old, new) = expansion.renamedTable {
        return [
          (new,
           "drop the view \(SQLQuoting.identifier(old)) that kept \(SQLQuoting.identifier(new))'s old name for older app versions (migration \(CompatibilityWindow.number(expansion.migration)) kept it; no schema in the window reads it now)")
        ]
      }
      let old = SQLQuoting.identifier(expansion.column ?? "")
      var line =
        "drop the triggers that kept \(SQLQuoting.identifier(expansion.after)).\(old) in step for older app versions (migration \(CompatibilityWindow.number(expansion.migration)) kept it; no schema in the window reads it now)"
      if dropsColumn, let (_, new) = expansion.renamedColumns {
        line += ", and the column, whose values \(SQLQuoting.identifier(new)) holds"
      }
      return [(expansion.after, line)]
    }
  }

  /// The whole file.
  func sql(moduleName: String) -> String {
    let lines = summary
    var header = "-- Generated by `swift package generate-migrations` for \(SQLLiteral.comment(moduleName)):\n"
    header += lines.enumerated().map { offset, line in
      "--   \(SQLLiteral.comment(line))\(offset == lines.count - 1 ? "." : ";")"
    }.joined(separator: "\n")
    if steps.contains(where: \.losesData) {
      header += "\n-- This migration deletes data (see \"deleting\" above); it was written with --allow-data-loss."
    }
    let kept = steps.compactMap { step -> Expansion? in
      if case .expand(let expansion) = step { expansion } else { nil }
    }
    if !kept.isEmpty {
      // The lines below are the record of what is kept: the planner reads them back.
      header += "\n-- Older app versions in the compatibility window (strata.json \"compatibleWith\") read and write what this"
      header += "\n-- migration keeps; a later one drops it once the window starts at this migration or later:"
      header += kept.map { "\n-- " + SQLLiteral.comment($0.marker) }.joined()
    }
    if let window { header += "\n" + CompatibilityWindow.headerLine(start: window.start) }
    for note in dialect.liveServerNotes(for: steps) {
      header += "\n-- " + SQLLiteral.comment(note)
    }
    header += """

      -- Migrations run in the order of their numbers; those a database has not run, in one transaction.
      -- Review this file like code; once it is merged, change the schema with a new migration, not this one.
      """
    // A migration that only keeps things for older versions has no statements.
    let blocks = blocks
    return header + "\n" + (blocks.isEmpty ? "" : "\n" + blocks.joined(separator: "\n\n") + "\n")
  }

  /// The statements, in groups separated by blank lines.
  private var blocks: [String] {
    var blocks: [String] = []
    func add(_ statements: [String]) {
      if !statements.isEmpty { blocks.append(statements.joined(separator: "\n")) }
    }
    // Steps of one kind that are single statements share a block; a table's own statements
    // (its rebuild, its creation with its indexes) make a block of their own.
    var shared: (phase: Int, statements: [String])?
    func flush() {
      if let group = shared { add(group.statements) }
      shared = nil
    }
    // Objects the migration drops first are not there for a rebuild to drop and recreate.
    var current = current
    let dropped = Set(steps.flatMap { step -> [String] in
      switch step {
      case .dropObject(let object, _): [SQLName.folded(object.name)]
      case .contract(let expansion, _):
        [SQLName.folded(expansion.table)] + expansion.triggerNames.map(SQLName.folded)
      default: []
      }
    })
    current.objects.removeAll { dropped.contains(SQLName.folded($0.name)) }
    for step in steps {
      let statements = dialect.statements(for: step, from: current)
      switch step {
      case .check, .dropIndex, .dropObject, .dropTable, .dropColumn, .addColumn, .createIndex:
        if shared?.phase != step.phase {
          flush()
          // Checks come under the comment that says how a failing one reports.
          if case .check = step { shared = (step.phase, [dialect.checksComment]) } else { shared = (step.phase, []) }
        }
        shared?.statements += statements
      case .renames, .rebuild, .createTable, .createObject, .expand, .contract:
        flush()
        add(statements)
      }
    }
    flush()
    return blocks
  }

  /// A file name that says what the migration does: `add_players_nickname`,
  /// `create_games_and_players`, `rebuild_games`, or the changes counted when names would make
  /// it long. ASCII only: file systems store other letters in different normal forms, and the
  /// name is the migration's identity in the migrator's records.
  var fileDescription: String {
    var parts: [(detailed: String, counted: String)] = []
    func part(_ verb: String, _ names: [String], noun: String, tables: [String] = []) {
      guard !names.isEmpty else { return }
      let onOneTable = Set(tables).count == 1 ? "_to_\(tables[0])" : ""
      parts.append(("\(verb)_" + Self.list(names), names.count == 1 ? "\(verb)_\(names[0])" : "\(verb)_\(names.count)_\(noun)\(onOneTable)"))
    }
    var names: [FileNamePart: [String]] = [:]
    var addedTo: [String] = []
    // A declaration made again is named once, as changed, not as its objects dropped and it
    // created; and not at all when its content table's rebuild is why, which the name says.
    var recreated: [String: DeclaredObject] = [:]
    for step in steps {
      guard case .createObject(let declaration) = step else { continue }
      for name in declaration.objectNames { recreated[SQLName.folded(name)] = declaration }
    }
    let rebuilt = Set(steps.compactMap { step in
      if case .rebuild(let rebuild) = step { SQLName.folded(rebuild.table.name) } else { nil }
    })
    let dropped = Set(steps.compactMap { step in
      if case .dropObject(let object, _) = step { SQLName.folded(object.name) } else { nil }
    })
    for step in steps {
      switch step {
      case .renames(let plan): names[.rename, default: []] += plan.tables.map(\.to) + plan.columns.map { "\($0.table)_\($0.to)" }
      case .dropTable(let table): names[.drop, default: []].append(table.name)
      case .dropColumn(let table, let column): names[.drop, default: []].append("\(table)_\(column)")
      case .check(let check): names[.check, default: []].append("\(check.table)_\(check.column)")
      case .rebuild(let rebuild): names[.rebuild, default: []].append(rebuild.table.name)
      case .createTable(let table): names[.create, default: []].append(table.name)
      case .addColumn(let table, let column):
        names[.addColumn, default: []].append("\(table)_\(column.name)")
        addedTo.append(table)
      case .createIndex(let index): names[.addIndex, default: []].append(index.name)
      case .dropIndex(let index): names[.dropIndex, default: []].append(index.name)
      case .dropObject(let object, _):
        if recreated[SQLName.folded(object.name)] == nil { names[.drop, default: []].append(object.name) }
      case .createObject(let object):
        if case .fullTextIndex(let index) = object, let content = index.content, rebuilt.contains(SQLName.folded(content.table)) {
          continue
        }
        if case .syncCapture(let capture) = object {
          if dropped.contains(SQLName.folded(object.name)) {
            names[.change, default: []].append("sync_" + capture.table)
          } else {
            names[.sync, default: []].append(capture.table)
          }
        } else if dropped.contains(SQLName.folded(object.name)) {
          names[.change, default: []].append(object.name)
        } else {
          names[.create, default: []].append(object.name)
        }
      case .expand(let expansion):
        if let (_, new) = expansion.renamedColumns {
          names[.rename, default: []].append("\(expansion.table)_\(new)")
        } else if expansion.renamedTable != nil {
          // The table's rename names the migration.
          continue
        } else {
          names[.keep, default: []].append(expansion.column.map { "\(expansion.table)_\($0)" } ?? expansion.table)
        }
      case .contract(let expansion, _):
        names[.contract, default: []].append(expansion.column.map { "\(expansion.after)_\($0)" } ?? expansion.table)
      }
    }
    part("rename", names[.rename] ?? [], noun: "names")
    part("contract", names[.contract] ?? [], noun: "columns")
    part("keep", names[.keep] ?? [], noun: "objects")
    part("drop", names[.drop] ?? [], noun: "objects")
    part("check", names[.check] ?? [], noun: "columns")
    part(dialect.changing(table: "").fileNameVerb, names[.rebuild] ?? [], noun: "tables")
    part("create", names[.create] ?? [], noun: "tables")
    part("sync", names[.sync] ?? [], noun: "tables")
    part("change", names[.change] ?? [], noun: "objects")
    part("add", names[.addColumn] ?? [], noun: "columns", tables: addedTo)
    part("add", names[.addIndex] ?? [], noun: "indexes")
    if parts.isEmpty { part("drop", names[.dropIndex] ?? [], noun: "indexes") }
    let limit = 60
    var description = parts.map(\.detailed).joined(separator: "_and_")
    if description.count > limit { description = parts.map(\.counted).joined(separator: "_and_") }
    if description.count > limit {
      var kept = [parts[0].counted]
      for part in parts.dropFirst() where (kept + [part.counted]).joined(separator: "_and_").count <= limit - 9 {
        kept.append(part.counted)
      }
      description = kept.joined(separator: "_and_") + (kept.count < parts.count ? "_and_more" : "")
    }
    if description.count > limit { description = String(description.prefix(limit)) }
    return String(
      description.unicodeScalars.map { scalar in
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
          ? Character(scalar) : "_"
      })
  }

  /// The groups of names a file name lists, in its order.
  private enum FileNamePart { case rename, contract, keep, drop, check, rebuild, create, sync, change, addColumn, addIndex, dropIndex }

  private static func list(_ names: [String]) -> String {
    switch names.count {
    case 1: names[0]
    case 2, 3: names.dropLast().joined(separator: "_") + "_and_" + names.last!
    default: names.prefix(2).joined(separator: "_") + "_and_\(names.count - 2)_more"
    }
  }
}
