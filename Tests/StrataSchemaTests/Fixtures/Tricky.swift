// A model file written to trip a parser: every lexical form that can hide a brace, a quote or a
// keyword, around models that must still be read exactly.
import Foundation
import Strata
#if canImport(SwiftUI)
import SwiftUI
#endif

/* A block comment with a struct Fake: Table { let x: Int } inside,
   /* nested */ and a "quote" and a brace { */

/// A reminders list.
@available(macOS 14, iOS 17, *)
public struct RemindersList: Strata.Table, Identifiable, Hashable {
  public let id: UUID
  // @Column(collate: .nocase)
  public var title = "Untitled \"list\" // not a comment"
  public var color: Int = 0x4A_99EF
  var position = -1
  public private(set) var isShared = false

  public static let defaultTitle = "{"
  public var displayTitle: String { title.isEmpty ? "(none)" : title }
  var titleLength: Int {
    get { title.count }
    set { _ = newValue }
  }

  var summary: String {
    """
    List "\(title)" has } braces { and \("nested \("strings")") in it
    """
  }

  public func rename(to name: String) -> Self {
    var copy = self
    let pattern = #/^[A-Z]{2}"/#
    let raw = #"a "raw" string with \(no interpolation) and }"#
    let rawer = ##"has "# inside"##
    _ = (pattern, raw, rawer, /{"}/)
    copy.title = name
    return copy
  }
}

extension RemindersList {
  /// A row of the lists screen: a nested selection, extended as `RemindersList.Row`.
  struct Row: Selection {
    let remindersList: RemindersList
    let remindersCount: Int
    var tags: String?
  }
}

enum Priority: Int {
  case low = 1
  case medium, high
}

enum Kind: String, CaseIterable { case todo, done = "finished" }

struct Reminder: Identifiable {
  let id: UUID
  let remindersListID: RemindersList.ID
  var title = ""
  var notes: Optional<String> = nil
  var dueDate: Date?
  var priority: Priority?
  var kind = Kind.todo
  var isFlagged = false
  // @Column(as: JSONRepresentation<[String]>.self)
  var tags: [String] = []
  var score = 0 {
    didSet { print("changed to \(score)") }
  }
  let width, height: Double

  #if DEBUG
    func debugDump() { print(self) }
  #endif

  @MainActor
  func view() -> some View {
    Text("}")
  }
}

extension Reminder: Table {}

#if os(Linux)
  struct LinuxOnly {}
#else
  struct OtherOnly {}
#endif

func freeFunction<T>(_ value: T) -> [String: T] where T: Equatable {
  let closure = { (x: Int) -> String in "\(x)}" }
  _ = closure
  struct LocalNotAModel: Table { let id: Int }
  return ["key": value]
}

let keyPath = \Reminder.title
