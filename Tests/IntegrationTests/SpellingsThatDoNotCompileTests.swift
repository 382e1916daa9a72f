import Foundation
import Testing

@testable import StrataSchema

/// Writes that would leave a row the model cannot read do not compile: each line of a snippet
/// is type-checked against the generated conformances and the built `Strata` module, as an
/// app's code would be, and must fail at its own line with the message given.
@Suite struct SpellingsThatDoNotCompileTests {
  static let models = """
    import Foundation
    import Strata

    struct Attachment: Table, Identifiable {
      let id: Int
      var title = ""
      var kind: Kind

      enum Kind: Selection {
        case link(String)
        case note(String)
        case image(Attachment.Image)
      }

      struct Image: Selection {
        var caption = ""
        var url: String
      }
    }

    struct Shipment: Table, Identifiable {
      let id: Int
      var delivery: Delivery?
    }

    enum Delivery: Selection {
      case deliveredAt(Date)
      case lost(reason: String)
    }

    struct Memo: Table, Identifiable {
      let id: Int
      var timestamps: Timestamps
    }

    struct Timestamps: Selection {
      var createdAt: Date
      var updatedAt: Date?
    }
    """

  /// Each write and the start of the error it must get; nil for one that compiles.
  static let writes: [(code: String, error: String?)] = [
    (#"Attachment.find(1).update { $0.kind.note = "Hello" }"#, nil),
    (#"Attachment.find(1).update { $0.kind.note = $0.title }"#, nil),
    (#"Attachment.find(1).update { $0.kind.note = $0.title.upper() }"#, nil),
    (#"Attachment.find(1).update { $0.kind.image = Attachment.Image(caption: "Cat", url: "cat.png") }"#, nil),
    (#"Attachment.find(1).update { $0.kind = .link("https://example.com") }"#, nil),
    (#"Shipment.find(1).update { $0.delivery = nil }"#, nil),
    (#"Shipment.find(1).update { $0.delivery.lost = "in transit" }"#, nil),
    // A case set to nil, which would leave every case's columns NULL.
    (#"Attachment.find(1).update { $0.kind.note = nil }"#, "'nil' cannot be assigned to type 'String'"),
    (#"Attachment.find(1).update { $0.kind.image = nil }"#, "'nil' cannot be assigned to type 'Attachment.Image"),
    (#"Shipment.find(1).update { $0.delivery.lost = nil }"#, "'nil' cannot be assigned to type 'String'"),
    // One column of a case's group, which would leave the group's other columns NULL.
    (#"Attachment.find(1).update { $0.kind.image.caption = "Cat" }"#, "getter for 'subscript(dynamicMember:)' is unavailable"),
    // An optional expression, NULL in the rows of the other cases.
    (#"Attachment.find(1).update { $0.kind.note = Attachment.columns.kind.link }"#, "cannot assign value of type 'TableColumn<Attachment, String?>' to type 'String'"),
    // A case's group from expressions, and a group whole or column by column.
    (#"Attachment.find(1).update { $0.kind.image = Attachment.Image.Columns(caption: $0.title, url: "cat.png") }"#, nil),
    (#"Memo.find(1).update { $0.timestamps = Timestamps(createdAt: Date(), updatedAt: nil) }"#, nil),
    (#"Memo.find(1).update { $0.timestamps.updatedAt = nil }"#, nil),
    (#"Memo.find(1).update { $0.timestamps.createdAt = Date() }"#, nil),
    // A group that is not optional set to nil, which its NOT NULL columns would refuse.
    (#"Memo.find(1).update { $0.timestamps = nil }"#, "setter for 'subscript(dynamicMember:)' is unavailable: The group is not optional"),
  ]

  @Test func writesThatWouldLeaveARowWithNoCaseDoNotCompile() async throws {
    let modules = BuiltModules.modules
    try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("Strata.swiftmodule").path), "no built Strata module at \(modules.path)")

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-spellings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let models = try Generator(sources: [("Models.swift", Self.models)]).models()
    let files = [
      ("Models.swift", Self.models),
      ("StrataModels.swift", SwiftEmitter.conformances(models, sources: ["Models.swift"])),
      ("Writes.swift", "import Foundation\nimport Strata\n\nfunc writes() {\n" + Self.writes.map { "  _ = \($0.code)\n" }.joined() + "}\n"),
    ]
    for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    let result = try await ChildProcess.start(
      ["/usr/bin/env", "swiftc", "-typecheck"] + (try BuiltModules.compilerArguments())
        + files.map { directory.appendingPathComponent($0.0).path }
    ).finish(timeout: 600)
    let output = result.output + result.errors
    // `Writes.swift:LINE:COLUMN: error: message`, one per failing line.
    var errors: [Int: String] = [:]
    for line in output.split(separator: "\n") where line.contains("Writes.swift:") && line.contains(": error: ") {
      let parts = line.split(separator: ":", maxSplits: 4)
      guard parts.count == 5, let number = Int(parts[1]) else { continue }
      errors[number] = errors[number] ?? String(parts[4]).trimmingCharacters(in: .whitespaces)
    }
    #expect(!output.contains("Models.swift:"), "the models and the generated code must compile: \(output)")
    for (offset, write) in Self.writes.enumerated() {
      let error = errors[offset + 5]
      if let expected = write.error {
        #expect(error?.hasPrefix(expected) == true, "\(write.code): \(error ?? "compiles")\n\(output)")
      } else {
        #expect(error == nil, "\(write.code): \(error ?? "")")
      }
    }
  }
}
