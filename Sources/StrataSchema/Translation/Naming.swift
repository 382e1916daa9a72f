/// The naming conventions: a type name becomes its table name by lower-camel-casing and
/// pluralizing the last word (`RemindersList` → `remindersLists`, `Category` → `categories`).
enum Naming {
  static func tableName(forType name: String) -> String {
    let camel = lowerCamelCased(name)
    let split = lastWordStart(camel)
    let head = camel[..<split]
    let word = String(camel[split...])
    return head + pluralized(word)
  }

  /// `Game` → `game`, `URLRecord` → `urlRecord`, `ID` → `id`.
  static func lowerCamelCased(_ name: String) -> String {
    let characters = Array(name)
    var uppercasePrefix = 0
    while uppercasePrefix < characters.count, characters[uppercasePrefix].isUppercase {
      uppercasePrefix += 1
    }
    if uppercasePrefix == 0 { return name }
    // In `URLRecord` the last capital of the run starts the next word.
    let lowered =
      uppercasePrefix > 1 && uppercasePrefix < characters.count ? uppercasePrefix - 1 : uppercasePrefix
    return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
  }

  /// Where the last camel-case word starts.
  private static func lastWordStart(_ name: String) -> String.Index {
    var index = name.endIndex
    while index > name.startIndex {
      let previous = name.index(before: index)
      if name[previous].isUppercase { return previous }
      index = previous
    }
    return name.startIndex
  }

  private static let irregular: [String: String] = [
    "person": "people", "child": "children", "man": "men", "woman": "women", "mouse": "mice",
    "goose": "geese", "foot": "feet", "tooth": "teeth", "datum": "data", "index": "indices",
  ]

  private static let invariable: Set<String> = [
    "data", "info", "information", "metadata", "news", "series", "species", "equipment",
    "feedback",
  ]

  /// English plural of one word, keeping its capitalization.
  static func pluralized(_ word: String) -> String {
    let lower = word.lowercased()
    if invariable.contains(lower) { return word }
    if let plural = irregular[lower] {
      return word.first?.isUppercase == true ? plural.prefix(1).uppercased() + plural.dropFirst() : plural
    }
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch")
      || lower.hasSuffix("sh")
    {
      return word + "es"
    }
    if lower.hasSuffix("y"), lower.count > 1, !vowels.contains(lower.dropLast().last!) {
      return word.dropLast() + "ies"
    }
    return word + "s"
  }
}
