/// Checks that need every table at once, and the order tables are created in.
///
/// Graph walks here are iterative: a chain of thousands of tables, each referencing the
/// previous one, must not exhaust the stack.
enum SchemaRules {
  static func check(tables: [TableModel], schemas: [TableSchema], diagnostics: inout Diagnostics) {
    checkNames(tables: tables, schemas: schemas, diagnostics: &diagnostics)
    checkRequiredReferenceCycles(tables: tables, schemas: schemas, diagnostics: &diagnostics)
  }

  /// Tables and indexes share one namespace in SQLite, compared without ASCII case.
  private static func checkNames(tables: [TableModel], schemas: [TableSchema], diagnostics: inout Diagnostics) {
    var tableNames: [String: TableModel] = [:]
    for table in tables { tableNames[SQLName.folded(table.tableName)] = table }
    var indexNames: [String: IndexSchema] = [:]
    for (table, schema) in zip(tables, schemas) {
      for index in schema.indexes {
        let location = table.columns.first { $0.columnName == index.columns.first }?.location ?? table.location
        let folded = SQLName.folded(index.name)
        if let other = tableNames[folded] {
          diagnostics.error(
            "the index Strata creates for \(NameRules.display(index.table)).\(NameRules.display(index.columns.joined(separator: ", "))) is named \(NameRules.display(index.name)), the name of the table of '\(other.swiftName)'; SQLite names tables and indexes in one namespace, so rename one of them",
            at: location)
        } else if let other = indexNames[folded] {
          diagnostics.error(
            "the index Strata creates for \(NameRules.display(index.table)).\(NameRules.display(index.columns.joined(separator: ", "))) is named \(NameRules.display(index.name)), like the one on \(NameRules.display(other.table)); rename a table or column",
            at: location)
        } else {
          indexNames[folded] = index
        }
      }
    }
  }

  /// Tables that reference each other through NOT NULL foreign keys can never get a first row:
  /// each insert needs a row of the other table to exist already. A table that references itself
  /// can (its first row references itself), so that is only a warning.
  private static func checkRequiredReferenceCycles(
    tables: [TableModel], schemas: [TableSchema], diagnostics: inout Diagnostics
  ) {
    let index = Dictionary(schemas.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    var edges: [[(target: Int, column: String)]] = Array(repeating: [], count: schemas.count)
    for (offset, schema) in schemas.enumerated() {
      for column in schema.columns where column.isNotNull {
        guard let reference = column.references, let target = index[reference.table] else { continue }
        if target == offset {
          let location = tables[offset].columns.first { $0.columnName == column.name }?.location ?? tables[offset].location
          diagnostics.warning(
            "\(NameRules.display(column.name)) references its own table and cannot be NULL, so every row must reference itself or an earlier row; make it optional if the first row has nothing to reference",
            at: location)
        } else {
          edges[offset].append((target, column.name))
        }
      }
    }
    for component in stronglyConnectedComponents(edges.map { $0.map(\.target) }) where component.count > 1 {
      let members = Set(component)
      let first = component.min()!
      let path = component.sorted().flatMap { table in
        edges[table].filter { members.contains($0.target) }.map {
          "\(schemas[table].name).\($0.column) → \(schemas[$0.target].name)"
        }
      }
      let column = edges[first].first { members.contains($0.target) }!.column
      let location = tables[first].columns.first { $0.columnName == column }?.location ?? tables[first].location
      diagnostics.error(
        "tables \(component.sorted().map { NameRules.display(schemas[$0].name) }.joined(separator: ", ")) reference each other through NOT NULL foreign keys (\(path.joined(separator: ", "))), so none of them can ever get a first row; make one of these references optional",
        at: location)
    }
  }

  /// Tarjan's algorithm with an explicit stack.
  static func stronglyConnectedComponents(_ edges: [[Int]]) -> [[Int]] {
    var indexOf = Array(repeating: -1, count: edges.count)
    var lowLink = Array(repeating: 0, count: edges.count)
    var onStack = Array(repeating: false, count: edges.count)
    var stack: [Int] = []
    var components: [[Int]] = []
    var counter = 0
    for root in edges.indices where indexOf[root] < 0 {
      var work: [(node: Int, next: Int)] = [(root, 0)]
      indexOf[root] = counter
      lowLink[root] = counter
      counter += 1
      stack.append(root)
      onStack[root] = true
      while let (node, next) = work.popLast() {
        if next < edges[node].count {
          let target = edges[node][next]
          work.append((node, next + 1))
          if indexOf[target] < 0 {
            indexOf[target] = counter
            lowLink[target] = counter
            counter += 1
            stack.append(target)
            onStack[target] = true
            work.append((target, 0))
          } else if onStack[target] {
            lowLink[node] = min(lowLink[node], indexOf[target])
          }
          continue
        }
        if let parent = work.last?.node {
          lowLink[parent] = min(lowLink[parent], lowLink[node])
        }
        if lowLink[node] == indexOf[node] {
          var component: [Int] = []
          while let member = stack.popLast() {
            onStack[member] = false
            component.append(member)
            if member == node { break }
          }
          components.append(component)
        }
      }
    }
    return components
  }

  /// Tables in declaration order, each moved after the tables it references (where references
  /// go in a circle, declaration order decides).
  static func creationOrder(_ tables: [TableSchema]) -> [TableSchema] {
    let index = Dictionary(tables.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    var state = Array(repeating: 0, count: tables.count)  // 0 new, 1 visiting, 2 placed
    var ordered: [TableSchema] = []
    ordered.reserveCapacity(tables.count)
    for root in tables.indices where state[root] == 0 {
      var work: [(table: Int, next: Int)] = [(root, 0)]
      state[root] = 1
      while let (table, next) = work.popLast() {
        let columns = tables[table].columns
        var position = next
        var descended = false
        while position < columns.count {
          let column = columns[position]
          position += 1
          if let target = column.references.flatMap({ index[$0.table] }), state[target] == 0 {
            work.append((table, position))
            work.append((target, 0))
            state[target] = 1
            descended = true
            break
          }
        }
        if !descended {
          state[table] = 2
          ordered.append(tables[table])
        }
      }
    }
    return ordered
  }
}
