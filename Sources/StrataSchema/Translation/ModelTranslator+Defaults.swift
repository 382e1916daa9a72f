/// A property's literal initial value as the column's SQL `DEFAULT`. A literal the column's type
/// cannot hold is an error here, before any migration freezes it; a value that is not a literal
/// (`Date()`, `.now`, a static member) stays a Swift default only.
extension ModelTranslator {
  mutating func sqlDefault(_ initializer: Expression, storage: Storage, property: PropertyDeclaration) -> ColumnDefault? {
    let value = initializer.value
    if let declaration = storage.enumDeclaration, let rawType = storage.enumRawType {
      return enumDefault(initializer, of: declaration, rawType: rawType, property: property)
    }
    if storage.representation != nil {
      switch value {
      case .emptyArray where storage.isJSON: return .text("[]")
      case .emptyDictionary where storage.isJSON: return .text("{}")
      default: return nil
      }
    }
    let typeName = storage.builtIn ?? sqlType(of: storage).sql
    func wrongType() -> ColumnDefault? {
      diagnostics.error(
        "the default \(initializer.text) is not a value of '\(property.name)', which is \(typeName)",
        at: initializer.location)
      return nil
    }
    switch value {
    case .string(let text):
      guard storage.isText else { return wrongType() }
      return stringDefault(text, at: initializer.location)
    case .integer(let digits):
      guard storage.isInteger || storage.valueType == .real && storage.builtIn != nil
      else { return wrongType() }
      guard let number = Self.integerValue(digits) else {
        diagnostics.error("the default \(initializer.text) does not fit in 64 bits", at: initializer.location)
        return nil
      }
      if storage.valueType == .real { return .real(String(number) + ".0") }
      if let builtIn = storage.builtIn, let range = Self.integerRanges[builtIn], !range.contains(number) {
        diagnostics.error(
          "the default \(initializer.text) does not fit in \(builtIn) (\(range.lowerBound)...\(range.upperBound))",
          at: initializer.location)
        return nil
      }
      return .integer(String(number))
    case .float(let digits):
      guard storage.valueType == .real, storage.builtIn != nil else { return wrongType() }
      guard let number = Double(digits.replacing("_", with: "")), number.isFinite else {
        diagnostics.error("the default \(initializer.text) is not a finite number", at: initializer.location)
        return nil
      }
      return .real(String(number))
    case .bool(let flag):
      guard storage.isBool else { return wrongType() }
      return dialect.booleanDefault(flag)
    default:
      return nil
    }
  }

  /// A string default: tabs and line breaks are fine inside an SQL string; other control and
  /// invisible characters would sit unseen in a reviewed migration.
  private mutating func stringDefault(_ text: String, at location: SourceLocation) -> ColumnDefault? {
    if let scalar = text.unicodeScalars.first(where: { $0 != "\n" && $0 != "\t" && InvisibleCharacters.isInvisible($0) }) {
      diagnostics.error(
        "the default contains \(InvisibleCharacters.describe(scalar)), a control or invisible character, which a migration file would carry unseen; compute such a value in Swift (a non-literal default) instead",
        at: location)
      return nil
    }
    return .text(text)
  }

  private mutating func enumDefault(
    _ initializer: Expression, of declaration: TypeDeclaration, rawType: String, property: PropertyDeclaration
  ) -> ColumnDefault? {
    switch initializer.value {
    case .member(let type, let name):
      // `Other.name` is some other type's member; only the compiler can tell its value.
      if let type, type.split(separator: ".").last.map(String.init) != declaration.name { return nil }
      if let enumCase = declaration.cases.first(where: { $0.name == name }) {
        return rawValueSQL(of: enumCase, in: declaration, rawType: rawType)
      }
      let members = declaration.properties + (extensions[declaration.qualifiedName] ?? []).flatMap(\.properties)
      if members.contains(where: { $0.isStatic && $0.name == name }) { return nil }
      diagnostics.error(
        "'\(declaration.qualifiedName)' has no case '\(name)' (its cases: \(declaration.cases.map(\.name).joined(separator: ", ")))",
        at: initializer.location)
      return nil
    case .call, .other:
      return nil
    default:
      diagnostics.error(
        "the default \(initializer.text) is not a case of '\(declaration.qualifiedName)', the type of '\(property.name)'",
        at: initializer.location)
      return nil
    }
  }

  /// A case's raw value as a default, explicit or implicit (the case's name for `String`, one
  /// more than the previous case for integers).
  mutating func rawValueSQL(of target: EnumCase, in declaration: TypeDeclaration, rawType: String) -> ColumnDefault? {
    var nextInteger: Int64 = 0
    for enumCase in declaration.cases {
      if case .integer(let digits)? = enumCase.rawValue, let value = Self.integerValue(digits) {
        nextInteger = value
      }
      guard enumCase.name == target.name else {
        nextInteger &+= 1
        continue
      }
      switch enumCase.rawValue {
      case .string(let text)?:
        return stringDefault(text, at: enumCase.location)
      case .integer?:
        return .integer(String(nextInteger))
      case nil where StorageType.builtIn[rawType] == .integer:
        return .integer(String(nextInteger))
      case .float(let digits)?:
        return Double(digits.replacing("_", with: "")).map { .real(String($0)) }
      case .bool(let flag)?:
        return .integer(flag ? "1" : "0")
      case nil where rawType == "String":
        return .text(enumCase.name)
      default:
        return nil
      }
    }
    return nil
  }

  static let integerRanges: [String: ClosedRange<Int64>] = [
    "Int8": Int64(Int8.min)...Int64(Int8.max), "Int16": Int64(Int16.min)...Int64(Int16.max),
    "Int32": Int64(Int32.min)...Int64(Int32.max), "UInt8": 0...Int64(UInt8.max),
    "UInt16": 0...Int64(UInt16.max), "UInt32": 0...Int64(UInt32.max),
  ]

  /// The value of an integer literal (decimal, `0x`, `0o`, `0b`, with `_` and a leading `-`),
  /// or nil when it does not fit in 64 bits.
  static func integerValue(_ digits: String) -> Int64? {
    let clean = digits.replacing("_", with: "")
    let negative = clean.hasPrefix("-")
    let body = negative ? clean.dropFirst() : Substring(clean)
    let magnitude: UInt64?
    if body.hasPrefix("0x") {
      magnitude = UInt64(body.dropFirst(2), radix: 16)
    } else if body.hasPrefix("0b") {
      magnitude = UInt64(body.dropFirst(2), radix: 2)
    } else if body.hasPrefix("0o") {
      magnitude = UInt64(body.dropFirst(2), radix: 8)
    } else {
      magnitude = UInt64(body)
    }
    guard let magnitude else { return nil }
    if negative {
      return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
    }
    return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
  }
}
