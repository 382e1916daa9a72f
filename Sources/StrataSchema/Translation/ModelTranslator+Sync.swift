import StrataSQL

/// Synced tables (`// @Synced`): what sync needs of a table, checked at the model's lines, and,
/// on SQLite, the triggers that record its writes.
extension ModelTranslator {
  /// Reads `@Synced` and `@Merge` into the models, and returns the capture of each synced table.
  mutating func syncCaptures(
    _ stored: inout [(model: TableModel, type: TypeDeclaration, schema: TableSchema)]
  ) -> [DeclaredObject] {
    var captures: [DeclaredObject] = []
    var synced: Set<String> = []
    for index in stored.indices {
      let (model, type, schema) = stored[index]
      let options = typeOptions[type.qualifiedName] ?? AnnotationOptions()
      let merges = type.properties.compactMap { property in
        self.options(of: property).merge.map { (property, $0, self.options(of: property).present["Merge"] ?? property.location) }
      }
      guard options.isSynced else {
        for (property, _, location) in merges {
          diagnostics.error(
            "@Merge on '\(type.qualifiedName).\(property.name)' does nothing: '\(type.qualifiedName)' does not sync; add // @Synced above it",
            at: location)
        }
        continue
      }
      let location = options.present["Synced"] ?? type.location
      if let problem = whyCannotSync(model, options: options) {
        diagnostics.error("'\(type.qualifiedName)' cannot sync: \(problem)", at: location)
        continue
      }
      guard let key = model.primaryKey, schema.compositePrimaryKey.isEmpty,
        key.storedType == "UUID" || key.storedType.hasPrefix("UUID.")
      else {
        diagnostics.error(
          "'\(type.qualifiedName)' syncs, so its key must be one UUID column (`let id: UUID`): replicas create rows without asking each other, and two of them would pick the same integer",
          at: model.primaryKey?.location ?? location)
        continue
      }
      var sync = SyncModel()
      var counters: Set<String> = []
      for (property, merge, mergeLocation) in merges {
        let columns = model.columns.filter { $0.propertyName == property.name || $0.group?.propertyName == property.name }
        if columns.contains(where: { $0.columnName == key.columnName }) {
          diagnostics.error("'\(property.name)' is the key of '\(type.qualifiedName)'; a key never changes, so it has nothing to merge", at: mergeLocation)
          continue
        }
        if columns.contains(where: \.isGenerated) {
          diagnostics.error("'\(property.name)' is generated: each replica computes it, so it does not sync", at: mergeLocation)
          continue
        }
        if merge == .counter,
          columns.contains(where: { column in column.isOptional || !Self.isInteger(schema.column(named: column.columnName)?.type) })
        {
          diagnostics.error(
            "@Merge(.counter) counts in integers: '\(property.name)' must be a non-optional integer (Int, Int64, …)", at: mergeLocation)
          continue
        }
        for column in columns {
          sync.merges[column.columnName] = merge
          if merge == .counter { counters.insert(column.columnName) }
        }
      }
      stored[index].model.sync = sync
      synced.insert(SQLName.folded(model.tableName))
      // On PostgreSQL the table is the sync server's (StrataSyncServer), which writes it
      // itself after merging: no trigger records its writes.
      guard databaseDialect == .sqlite else { continue }
      captures.append(
        .syncCapture(
          SyncCapture(
            table: model.tableName, key: key.columnName,
            columns: model.columns.filter { !$0.isGenerated && $0.columnName != key.columnName }.map(\.columnName),
            counters: counters)))
    }
    // A row that references a synced row must sync too: otherwise a delete that arrives from
    // another replica would leave it pointing at nothing.
    for (model, _, schema) in stored where model.sync == nil {
      for column in schema.columns {
        guard let target = column.references?.table, synced.contains(SQLName.folded(target)) else { continue }
        let property = model.columns.first { $0.columnName == column.name }
        diagnostics.error(
          "'\(model.swiftName)' references the synced table \(NameRules.display(target)), so it must sync too: add // @Synced above it (with a UUID key)",
          at: property?.location ?? model.location)
      }
    }
    return captures
  }

  /// Whether a column of `type` holds integers, as SQLite or PostgreSQL declares it.
  private static func isInteger(_ type: SQLType?) -> Bool {
    switch type {
    case .integer: true
    case .other(let name): ["bigint", "integer", "smallint"].contains(name.lowercased())
    default: false
    }
  }

  private func whyCannotSync(_ model: TableModel, options: AnnotationOptions) -> String? {
    switch model.kind {
    case .view: return "it is a view; sync the tables it reads"
    case .fullTextIndex: return "it is a full-text index; sync its content table, and each replica indexes the rows it gets"
    case .table: break
    }
    if model.isUnmanaged { return "it is // @Unmanaged, and sync's triggers are part of the schema the migrations Strata writes make" }
    if model.schemaName != nil { return "it is in an attached database; synced tables are in the main one" }
    return nil
  }
}
