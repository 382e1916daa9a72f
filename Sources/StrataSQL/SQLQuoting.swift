// Inlinable: the builder quotes every name it writes, and a call into another module per name
// measurably slowed query building.

/// The one place where text becomes SQL: every name and every string literal Strata writes, in
/// queries, migrations and messages, is quoted here.
package enum SQLQuoting {
  /// A double-quoted identifier, with inner double quotes doubled: `"my ""table"""`.
  @inlinable
  package static func identifier(_ name: String) -> String {
    quoted(name, with: UInt8(ascii: "\""), mark: "\"")
  }

  /// A single-quoted string literal, with inner single quotes doubled: `'it''s'`.
  @inlinable
  package static func string(_ text: String) -> String {
    quoted(text, with: UInt8(ascii: "'"), mark: "'")
  }

  /// `text` between `mark`s, each `quote` byte in it doubled. The mark is passed as a string
  /// literal so that the common case builds the result without making one.
  @usableFromInline
  static func quoted(_ text: String, with quote: UInt8, mark: String) -> String {
    // Over the contiguous bytes, a plain loop: much faster than `contains` on the UTF-8 view,
    // and the common case (nothing to double) is the hot path of query building.
    let needsDoubling = text.utf8.withContiguousStorageIfAvailable { $0.contains(quote) } ?? text.utf8.contains(quote)
    guard needsDoubling else { return mark + text + mark }
    var quoted = mark
    for character in text.unicodeScalars {
      quoted.unicodeScalars.append(character)
      if character.value == UInt32(quote) { quoted.unicodeScalars.append(character) }
    }
    return quoted + mark
  }
}
