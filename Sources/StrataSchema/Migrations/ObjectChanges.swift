/// What it takes to bring the full-text indexes, views and triggers the migrations made to the
/// ones the models declare.
///
/// A declaration is compared as the database keeps it: the `CREATE` text of each object it makes
/// (a full-text index with external content makes a virtual table and three triggers). One that
/// is new is created; one whose objects differ is dropped and created again, and so is a
/// full-text index whose content table is rebuilt in a way that changes the rows it indexed (their
/// rowids or the indexed values), so that it is made again from the copied rows. A rebuild that
/// keeps them keeps the index as it is: the rebuild recreates its triggers with the table.
/// An object the snapshot recorded as declared by a model, which no model declares now, is
/// dropped; objects no model ever declared are the migrations' own and are kept.
struct ObjectChanges {
  private(set) var steps: [SchemaChange] = []

  /// - Parameters:
  ///   - current: The objects the migrations make, and which virtual tables keep their own text.
  ///   - declared: The models' declarations.
  ///   - desired: The objects the declarations make, as the database keeps them.
  ///   - recorded: The objects models declared when the last migration was written (folded).
  ///   - rebuilds: The tables this migration rebuilds.
  ///   - unmanaged: The names of `// @Unmanaged` models, whose objects the migrations alone make
  ///     (folded).
  init(
    current: SchemaIntrospector.Introspection, declared: [DeclaredObject], desired: [SchemaObject],
    recorded: Set<String>, rebuilds: [SchemaChanges.Rebuild], unmanaged: Set<String> = []
  ) {
    let existing = Dictionary(current.objects.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    let wanted = Dictionary(desired.map { (SQLName.folded($0.name), $0) }, uniquingKeysWith: { first, _ in first })
    var dropped: Set<String> = []
    func drop(_ object: SchemaObject) {
      guard dropped.insert(SQLName.folded(object.name)).inserted else { return }
      steps.append(.dropObject(object, holdsData: current.holdsData(object)))
    }
    for declaration in declared {
      let names = declaration.objectNames.map(SQLName.folded)
      let unchanged = names.allSatisfy { name in
        existing[name].map { $0.sql == wanted[name]?.sql } ?? false
      }
      var contentChanges = false
      if case .fullTextIndex(let index) = declaration, let content = index.content,
        let rebuild = rebuilds.first(where: { SQLName.folded($0.table.name) == SQLName.folded(content.table) })
      {
        contentChanges = !rebuild.keepsRowidsAndValues(of: index.columns)
      }
      guard !unchanged || contentChanges else { continue }
      names.compactMap { existing[$0] }.forEach(drop)
      steps.append(.createObject(declaration))
    }
    let declaredNames = Set(declared.flatMap(\.objectNames).map(SQLName.folded))
    for object in current.objects
    where recorded.contains(SQLName.folded(object.name)) && !unmanaged.contains(SQLName.folded(object.name)) {
      if !declaredNames.contains(SQLName.folded(object.name)) { drop(object) }
    }
  }
}
