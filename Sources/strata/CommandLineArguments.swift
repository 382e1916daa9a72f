/// The tool's arguments: a command, `--option value` pairs, `--flag`s and input paths. Small on
/// purpose: the tool builds as part of every clean build of a user's package.
struct CommandLineArguments {
  let command: String?
  private var options: [String: String] = [:]
  private var flags: Set<String> = []
  private(set) var inputs: [String] = []
  private var error: String?

  static let valueOptions: Set<String> = [
    "--output", "--migrations", "--registry-output", "--snapshot", "--diagram", "--checksums", "--root", "--module",
  ]
  static let flagOptions: Set<String> = ["--check", "--allow-data-loss", "--accept-edits"]

  init(_ arguments: [String]) {
    command = arguments.first
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      if Self.valueOptions.contains(argument) {
        guard let value = rest.popFirst() else {
          error = "\(argument) needs a value"
          break
        }
        options[argument] = value
      } else if Self.flagOptions.contains(argument) {
        flags.insert(argument)
      } else if argument.hasPrefix("--") {
        error = "unknown option \(argument)"
      } else {
        inputs.append(argument)
      }
    }
  }

  func value(_ option: String) -> String? { options[option] }

  func flag(_ option: String) -> Bool { flags.contains(option) }

  func required(_ option: String) throws -> String {
    guard let value = options[option] else { throw UsageError("\(option) is required") }
    return value
  }

  func validate(needsInputs: Bool = true) throws {
    if let error { throw UsageError(error) }
    if needsInputs, inputs.isEmpty { throw UsageError("no model files or directories given") }
  }
}

struct UsageError: Error {
  let message: String

  init(_ message: String) {
    self.message = message
  }
}
