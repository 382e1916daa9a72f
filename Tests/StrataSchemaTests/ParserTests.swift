import Foundation
import Testing

@testable import StrataSchema

/// The front-end on real-world Swift: comments, strings of every kind, regex literals,
/// attributes and modifiers, `#if`, nested types, extensions, computed properties, observers,
/// static members, `let a, b: T`, and the type spellings models use.
@Suite struct ParserTests {
  let file: SourceFileDeclarations

  init() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/Tricky.swift")
    file = SwiftParser.parse(try String(contentsOf: url, encoding: .utf8), path: "Tricky.swift")
  }

  func type(_ name: String) throws -> TypeDeclaration {
    try #require(file.types.first { $0.qualifiedName == name && $0.kind != .extension })
  }

  func property(_ name: String, of type: String) throws -> PropertyDeclaration {
    try #require(try self.type(type).properties.first { $0.name == name })
  }

  @Test func readsTheFileWithoutErrors() {
    #expect(file.diagnostics.all.isEmpty, "\(file.diagnostics.all)")
  }

  @Test func findsEveryTypeWithItsQualifiedName() {
    let names = file.types.map { "\($0.kind.rawValue) \($0.qualifiedName)" }
    #expect(
      names == [
        "struct RemindersList", "extension RemindersList", "struct RemindersList.Row", "enum Priority",
        "enum Kind", "struct Reminder", "extension Reminder", "struct LinuxOnly", "struct OtherOnly",
      ])
    #expect(!names.contains { $0.contains("Fake") || $0.contains("LocalNotAModel") })
  }

  @Test func readsInheritanceAttributesAndAccess() throws {
    let list = try type("RemindersList")
    #expect(list.inheritance.map(\.text) == ["Strata.Table", "Identifiable", "Hashable"])
    #expect(list.accessLevel == .public)
    #expect(try type("Reminder").inheritance.map(\.text) == ["Identifiable"])
    #expect(file.types.first { $0.kind == .extension && $0.name == "Reminder" }?.inheritance.map(\.text) == ["Table"])
  }

  @Test func storedComputedAndStaticProperties() throws {
    let list = try type("RemindersList")
    #expect(
      list.properties.map(\.name) == [
        "id", "title", "color", "position", "isShared", "defaultTitle", "displayTitle", "titleLength",
        "summary",
      ])
    #expect(try property("displayTitle", of: "RemindersList").storage == .computed)
    #expect(try property("titleLength", of: "RemindersList").storage == .computed)
    #expect(try property("summary", of: "RemindersList").storage == .computed)
    #expect(try property("defaultTitle", of: "RemindersList").isStatic)
    #expect(try property("score", of: "Reminder").storage == .stored)
    #expect(try property("isShared", of: "RemindersList").accessLevel == .public)
  }

  @Test func initialValues() throws {
    #expect(try property("title", of: "RemindersList").initializer?.value == .string(#"Untitled "list" // not a comment"#))
    #expect(try property("color", of: "RemindersList").initializer?.value == .integer("0x4A_99EF"))
    #expect(try property("position", of: "RemindersList").initializer?.value == .integer("-1"))
    #expect(try property("isShared", of: "RemindersList").initializer?.value == .bool(false))
    #expect(try property("kind", of: "Reminder").initializer?.value == .member(type: "Kind", name: "todo"))
    #expect(try property("tags", of: "Reminder").initializer?.value == .emptyArray)
    #expect(try property("score", of: "Reminder").initializer?.text == "0")
  }

  @Test func typeSpellings() throws {
    #expect(try property("remindersListID", of: "Reminder").type?.text == "RemindersList.ID")
    #expect(try property("notes", of: "Reminder").type == .optional(.named([.init(name: "String", arguments: [])])))
    #expect(try property("dueDate", of: "Reminder").type?.text == "Date?")
    #expect(try property("tags", of: "Reminder").type?.text == "[String]")
    #expect(try property("width", of: "Reminder").type?.text == "Double")
    #expect(try property("height", of: "Reminder").type?.text == "Double")
  }

  @Test func annotationsAbovePropertiesAreRead() throws {
    let title = try property("title", of: "RemindersList")
    #expect(title.annotations.map(\.name) == ["Column"])
    #expect(title.annotations.first?.arguments.first?.label == "collate")
    #expect(title.annotations.first?.arguments.first?.value == .member("nocase"))
    let tags = try property("tags", of: "Reminder")
    #expect(tags.annotations.first?.arguments.first?.value == .type(.named([.init(name: "JSONRepresentation", arguments: [.array(.named([.init(name: "String", arguments: [])]))])])))
    #expect(try property("id", of: "RemindersList").annotations.isEmpty)
  }

  @Test func enumCasesAndRawValues() throws {
    #expect(try type("Priority").cases.map(\.name) == ["low", "medium", "high"])
    #expect(try type("Priority").cases.first?.rawValue == .integer("1"))
    #expect(try type("Kind").cases.map(\.rawValue) == [nil, .string("finished")])
  }

  @Test func associatedValuesOfEnumCases() throws {
    let source = """
      enum Media: Selection {
        case link(URL), note(String = "", Int)
        case span(startDate: Date, _ end: Date?), image(Attachment.Image)
        case none
        indirect case nested(Media)
      }
      """
    let file = SwiftParser.parse(source, path: "Media.swift")
    let cases = try #require(file.types.first).cases
    #expect(cases.map(\.name) == ["link", "note", "span", "image", "none", "nested"])
    #expect(cases.map { $0.associatedValues?.map(\.label) } == [[nil], [nil, nil], ["startDate", nil], [nil], nil, [nil]])
    #expect(cases.map { $0.associatedValues?.map { $0.type?.text ?? "?" } } == [
      ["URL"], ["String", "Int"], ["Date", "Date?"], ["Attachment.Image"], nil, ["Media"],
    ])
  }

  @Test func conditionalTypesAreMarked() throws {
    #expect(try type("LinuxOnly").isConditional)
    #expect(try type("OtherOnly").isConditional)
    #expect(try !type("Reminder").isConditional)
  }

  @Test func malformedInputIsReportedWithItsLine() {
    let broken = SwiftParser.parse(
      """
      struct A: Table {
        let id: Int
        var name = "unterminated
      }
      /* never closed
      """, path: "Broken.swift")
    let messages = broken.diagnostics.all.map { "\($0.location.line):\($0.location.column) \($0.message)" }
    #expect(messages.contains("3:14 unterminated string literal"))
    #expect(messages.contains("5:1 unterminated block comment"))
  }
}
