import StrataSQL

// How SQL's shared vocabulary is spelled in models: as Swift members in annotations
// (`onDelete: .setNull`, `collate: .nocase`) and as words in the schema language (`on delete set
// null`, `collate nocase`). The one place each spelling is defined, for the annotation reader,
// the schema-language parser and the renderers of imported and schema-file models.

extension ReferentialAction {
  /// The Swift member an annotation names: `setNull`.
  var swiftMember: String {
    switch self {
    case .cascade: "cascade"
    case .setNull: "setNull"
    case .setDefault: "setDefault"
    case .restrict: "restrict"
    case .noAction: "noAction"
    }
  }

  /// The action an annotation names by its Swift member.
  init?(swiftMember: String) {
    guard let action = Self.allCases.first(where: { $0.swiftMember == swiftMember }) else { return nil }
    self = action
  }

  /// The words the schema language writes: `set null`.
  var schemaWords: String { rawValue.lowercased() }
}

extension Collation {
  /// The collations models can name: SQLite's built-in ones.
  static let modelCollations: [Collation] = [.nocase, .binary, .rtrim]

  /// The Swift member an annotation names, and the schema language's word: `nocase`.
  var swiftMember: String { name.lowercased() }

  /// A built-in collation by its Swift member.
  init?(swiftMember: String) {
    guard let collation = Self.modelCollations.first(where: { $0.swiftMember == swiftMember }) else { return nil }
    self = collation
  }
}
