import Foundation
import StrataSQL

/// A statement's SQL as another dialect spells it: numbered placeholders (`$1`, `$2`, …), each
/// dialect piece respelled, and which bindings it sends.
///
/// It depends on the SQL text and its pieces alone, never on the values, so it is worked out once
/// per statement shape and kept: reading the text with the lexer and rebuilding it took longer
/// than building the statement (a lookup by key built and respelled in 1.65 µs, 0.84 µs with the
/// respelling kept; `strata-bench --only render`).
struct Respelling: Sendable {
  let sql: String
  /// The indexes of the bindings sent, in order, when a piece leaves some to the database
  /// (`DEFAULT` for a key a `Draft` leaves unset); nil when every binding is sent.
  let sentIndexes: [Int]?

  /// The bindings of a statement of this shape that are sent.
  func sent(_ bindings: [QueryBinding]) -> [QueryBinding] {
    guard let sentIndexes else { return bindings }
    return sentIndexes.compactMap { $0 < bindings.count ? bindings[$0] : nil }
  }

  /// The respelling of `sql` with `pieces` for `dialect`, worked out or kept.
  ///
  /// - Throws: ``DialectError`` when the SQL uses something `dialect` does not have.
  static func of(_ sql: String, _ pieces: [PlacedPiece]?, for dialect: SQLDialect) throws -> Respelling {
    let key = Key(dialect: dialect, sql: sql, pieces: pieces)
    if let kept = lock.withLock({ kept[key] }) { return kept }
    let respelling = try Respelling(sql, pieces ?? [], for: dialect)
    if sql.utf8.count <= longestKeptSQL {
      lock.withLock {
        if kept.count < keptShapes { kept[key] = respelling }
      }
    }
    return respelling
  }

  /// How many shapes are kept, and the longest SQL: enough for an app's statements, bounded for
  /// one that builds many shapes (a many-row insert per row count) or long ones.
  static let keptShapes = 1_024
  static let longestKeptSQL = 4_096

  private struct Key: Hashable {
    var dialect: SQLDialect
    var sql: String
    var pieces: [PlacedPiece]?
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var kept: [Key: Respelling] = [:]

  private init(_ sql: String, _ pieces: [PlacedPiece], for dialect: SQLDialect) throws {
    let lexer = SQLLexer(sql, keepingComments: true)
    // Edits in text order; at one offset, an insertion before a replacement, and insertions in
    // the order they were placed.
    var edits: [(range: Range<Int>, order: Int, text: String)] = []
    var unsent: Set<Int> = []
    for (order, placed) in pieces.enumerated() {
      switch placed.piece.text(for: dialect) {
      case .success(let text):
        edits.append((placed.offset..<(placed.offset + placed.length), order, text))
        if placed.piece.dropsBinding { unsent.insert(placed.offset) }
      case .failure(let reason):
        throw DialectError(dialect: dialect, reason: reason, sql: sql)
      }
    }
    var sentIndexes: [Int] = []
    var number = 0
    var index = 0
    for lexeme in lexer where lexeme.kind == .symbol && lexer.bytes[lexeme.range.lowerBound] == UInt8(ascii: "?") {
      defer { index += 1 }
      if unsent.contains(lexeme.range.lowerBound) { continue }
      number += 1
      edits.append((lexeme.range, edits.count, "$\(number)"))
      sentIndexes.append(index)
    }
    edits.sort {
      ($0.range.lowerBound, $0.range.upperBound, $0.order) < ($1.range.lowerBound, $1.range.upperBound, $1.order)
    }
    var result = ""
    var copied = 0
    for edit in edits {
      result += lexer.text(copied..<edit.range.lowerBound) + edit.text
      copied = edit.range.upperBound
    }
    self.sql = result + lexer.text(copied..<lexer.bytes.count)
    self.sentIndexes = unsent.isEmpty ? nil : sentIndexes
  }
}
