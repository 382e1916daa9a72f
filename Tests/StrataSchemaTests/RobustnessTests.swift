import Foundation
import Testing

@testable import StrataSchema

/// Malformed input is reported, never a crash: every truncation of the tricky fixture, and
/// thousands of random edits of it, go through the parser and the translator.
@Suite struct RobustnessTests {
  static let source: [UInt8] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/Tricky.swift")
    return Array((try? String(contentsOf: url, encoding: .utf8))?.utf8 ?? "".utf8)
  }()

  /// A small deterministic generator, so that a failure can be replayed.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  func translate(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    _ = SwiftParser.parse(text, path: "Mutated.swift")
    _ = try? Generator(sources: [("Mutated.swift", text)]).models()
  }

  @Test func everyTruncationIsHandled() {
    #expect(Self.source.count > 1000)
    for end in stride(from: 0, through: Self.source.count, by: 7) {
      translate(Array(Self.source[..<end]))
    }
  }

  @Test func randomEditsAreHandled() {
    var random = SplitMix(state: 2026)
    let alphabet = Array("{}()[]<>\"'#/*\\`@:;,.=?!-+ \nabcz019$_".utf8)
    for _ in 0..<3000 {
      var bytes = Self.source
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[position] = alphabet.randomElement(using: &random)!
        case 1: bytes.remove(at: position)
        default: bytes.insert(alphabet.randomElement(using: &random)!, at: position)
        }
      }
      translate(bytes)
    }
  }
}
