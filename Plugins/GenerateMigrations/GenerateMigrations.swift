import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-migrations [--target T] [--check]
/// [--allow-data-loss] [--accept-edits]`
///
/// Runs `strata migrations` for each non-test target that depends on Strata (or those named
/// with `--target`): writes the next migration file into the target's `Migrations` folder, and
/// the schema snapshot, its diagram and the migrations' checksums into the package's `schemas`
/// folder. With `--check`, writes nothing and fails when anything is missing or out of date.
@main
struct GenerateMigrations: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let names = extractor.extractOption(named: "target")
    let check = extractor.extractFlag(named: "check") > 0
    let allowDataLoss = extractor.extractFlag(named: "allow-data-loss") > 0
    let acceptEdits = extractor.extractFlag(named: "accept-edits") > 0
    if !extractor.remainingArguments.isEmpty {
      throw PluginError(
        "unexpected arguments: \(extractor.remainingArguments.joined(separator: " ")); use --target NAME, --check, --allow-data-loss and --accept-edits")
    }
    let targets: [SourceModuleTarget]
    if names.isEmpty {
      targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }.filter(Self.usesStrata)
    } else {
      targets = try names.map { name in
        guard let target = try context.package.targets(named: [name]).first as? SourceModuleTarget else {
          throw PluginError("no source target named \(name)")
        }
        return target
      }
    }
    if targets.isEmpty {
      throw PluginError("no target depends on Strata; name one with --target")
    }
    let tool = try context.tool(named: "strata").url
    var status: Int32 = 0
    for target in targets {
      let schemas = context.package.directoryURL.appending(path: "schemas")
      var arguments = [
        "migrations", "--module", target.name, "--root", target.directoryURL.path(percentEncoded: false),
        "--migrations", target.directoryURL.appending(path: "Migrations").path(percentEncoded: false),
        "--snapshot", schemas.appending(path: "\(target.name).sql").path(percentEncoded: false),
        "--diagram", schemas.appending(path: "\(target.name).md").path(percentEncoded: false),
        "--checksums", schemas.appending(path: "\(target.name).sum").path(percentEncoded: false),
      ]
      if check { arguments.append("--check") }
      if allowDataLoss { arguments.append("--allow-data-loss") }
      if acceptEdits { arguments.append("--accept-edits") }
      arguments += target.sourceFiles(withSuffix: "swift").map { $0.url.path(percentEncoded: false) }
      status = max(status, try run(tool, arguments))
    }
    // SwiftPM exits 1 whatever the plugin's status; scripts that need to tell "out of date" (2)
    // from errors (1) run `strata migrations --check` themselves.
    if status != 0 {
      throw PluginError(check ? "the migrations do not match the models" : "generate-migrations failed")
    }
  }

  /// Runs the tool, passing its diagnostics on so that Xcode and SwiftPM show them at their
  /// lines.
  private func run(_ tool: URL, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      Self.report(String(line))
    }
    return process.terminationStatus
  }

  /// Turns `path:line:column: error: message` into a diagnostic at that line.
  static func report(_ line: String) {
    let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
    if parts.count == 5, let lineNumber = Int(parts[1]), Int(parts[2]) != nil {
      let message = parts[4].trimmingCharacters(in: .whitespaces)
      let file = String(parts[0])
      switch parts[3].trimmingCharacters(in: .whitespaces) {
      case "error": Diagnostics.error(message, file: file, line: lineNumber)
      case "warning": Diagnostics.warning(message, file: file, line: lineNumber)
      default: Diagnostics.remark(message, file: file, line: lineNumber)
      }
    } else if parts.count >= 3, parts[1].trimmingCharacters(in: .whitespaces) == "error" {
      Diagnostics.error(parts[2...].joined(separator: ":").trimmingCharacters(in: .whitespaces), file: String(parts[0]))
    } else {
      Diagnostics.remark(line)
    }
  }

  private static func usesStrata(_ target: SourceModuleTarget) -> Bool {
    target.kind != .test && target.dependencies.contains { dependency in
      switch dependency {
      case .product(let product): return product.name == "Strata"
      case .target(let target): return target.name == "Strata"
      @unknown default: return false
      }
    }
  }
}

struct PluginError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
