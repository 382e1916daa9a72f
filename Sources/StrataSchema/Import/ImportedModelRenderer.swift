/// Writes imported models as Swift structs or as a schema file. Every name and string from the
/// database goes through ``SwiftLiteral``; property and type names are plain identifiers the
/// importer made.
enum ImportedModelRenderer {
  /// The Swift models, and the lines each table's model occupies (1-based, inclusive), so that a
  /// diagnostic about the file can be traced to its table.
  static func swift(_ tables: [ImportedTable], source: String) -> (text: String, lines: [(table: String, range: ClosedRange<Int>)]) {
    var lines = [
      "// Imported by `strata import` from \(SwiftLiteral.comment(source)): one model per table.",
      "// A model marked // @Unmanaged describes a table its migrations make as they are; remove the",
      "// mark to have the next migration rebuild the table in Strata's conventions.",
      "import Foundation",
      "import Strata",
    ]
    var ranges: [(String, ClosedRange<Int>)] = []
    for table in tables {
      lines.append("")
      let start = lines.count + 1
      lines += comment(table).map { "/// " + $0 }
      lines += tableAnnotations(table)
      let protocols = table.keyProperty == "id" ? "Table, Identifiable" : "Table"
      lines.append("struct \(SwiftLiteral.identifier(table.typeName)): \(protocols) {")
      for column in table.columns {
        lines += columnAnnotations(column, in: table).map { "  " + $0 }
        let keyword = column.isPrimaryKey ? "let" : "var"
        let type = column.type.swift + (column.isOptional ? "?" : "")
        let initial = column.defaultValue.map { " = " + $0.swift } ?? ""
        lines.append("  \(keyword) \(SwiftLiteral.identifier(column.propertyName)): \(type)\(initial)")
      }
      lines.append("}")
      ranges.append((table.tableName, start...lines.count))
    }
    return (lines.joined(separator: "\n") + "\n", ranges)
  }

  /// The same models in the schema language.
  static func schemaFile(_ tables: [ImportedTable], source: String) -> String {
    var lines = [
      "// Imported by `strata import` from \(SwiftLiteral.comment(source)): one table per table of the",
      "// database. A table marked unmanaged is made by its migrations as it is; remove the word to",
      "// have the next migration rebuild it in Strata's conventions.",
    ]
    for table in tables {
      lines.append("")
      lines += comment(table).map { "// " + $0 }
      var header = "table \(table.typeName)"
      if needsTableName(table) { header += " named \(SwiftLiteral.string(table.tableName))" }
      if table.isUnmanaged { header += " unmanaged" }
      lines.append(header + " {")
      let width = table.columns.map(\.propertyName.count).max() ?? 0
      for column in table.columns {
        var line = column.propertyName.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
        line += column.type.schemaFile + (column.isOptional ? "?" : "")
        if column.isPrimaryKey, column.propertyName != "id" { line += " primary" }
        if column.isUnique { line += " unique" }
        if column.isIndexed { line += " indexed" }
        if let collation = column.collation { line += " collate " + collation.swiftMember }
        if column.columnName != column.propertyName { line += " named \(SwiftLiteral.string(column.columnName))" }
        if let action = column.onDelete { line += " on delete " + action.schemaWords }
        if let sql = column.rawDefault { line += " default raw " + SwiftLiteral.string(sql) }
        if let value = column.defaultValue { line += " = " + value.swift }
        lines.append("  " + line)
      }
      if !table.compositeKey.isEmpty { lines.append("  primary (\(table.compositeKey.joined(separator: ", ")))") }
      lines += table.checks.map { "  check raw " + SwiftLiteral.string($0) }
      for index in table.indexes {
        let condition = index.condition.map { " where raw " + SwiftLiteral.string($0) } ?? ""
        lines.append("  \(index.isUnique ? "unique" : "index") (\(index.properties.joined(separator: ", ")))\(condition)")
      }
      lines.append("}")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The doc comment: the table's name and, for an unmanaged one, why.
  private static func comment(_ table: ImportedTable) -> [String] {
    var lines = ["The \(table.isView ? "view" : "table") \(SwiftLiteral.comment(NameRules.display(table.tableName)))."]
    if table.isUnmanaged {
      lines.append("Unmanaged: " + table.unmanagedReasons.map(SwiftLiteral.comment).joined(separator: "; ") + ".")
    }
    return lines
  }

  private static func needsTableName(_ table: ImportedTable) -> Bool {
    Naming.tableName(forType: table.typeName) != table.tableName
  }

  private static func tableAnnotations(_ table: ImportedTable) -> [String] {
    var lines: [String] = []
    if needsTableName(table) { lines.append("// @Table(\(SwiftLiteral.string(table.tableName)))") }
    if table.isUnmanaged { lines.append("// @Unmanaged") }
    if !table.compositeKey.isEmpty {
      lines.append("// @PrimaryKey(on: \(SwiftLiteral.string(table.compositeKey.joined(separator: ", "))))")
    }
    lines += table.checks.map { "// @Check(raw: \(SwiftLiteral.string($0)))" }
    for index in table.indexes {
      let condition = index.condition.map { ", whereRaw: " + SwiftLiteral.string($0) } ?? ""
      lines.append(
        "// @\(index.isUnique ? "Unique" : "Index")(on: \(SwiftLiteral.string(index.properties.joined(separator: ", ")))\(condition))")
    }
    return lines
  }

  private static func columnAnnotations(_ column: ImportedColumn, in table: ImportedTable) -> [String] {
    var arguments: [String] = []
    if column.columnName != column.propertyName { arguments.append(SwiftLiteral.string(column.columnName)) }
    if column.isPrimaryKey, column.propertyName != "id" { arguments.append("primaryKey: true") }
    if let collation = column.collation { arguments.append("collate: .\(collation.swiftMember)") }
    var lines = arguments.isEmpty ? [] : ["// @Column(\(arguments.joined(separator: ", ")))"]
    if let sql = column.rawDefault { lines.append("// @Default(raw: \(SwiftLiteral.string(sql)))") }
    if column.isUnique { lines.append("// @Unique") }
    if column.isIndexed { lines.append("// @Index") }
    if let action = column.onDelete, case .key(let type) = column.type {
      lines.append("// @References(\(SwiftLiteral.identifier(type)).self, onDelete: .\(action.swiftMember))")
    }
    return lines
  }
}
