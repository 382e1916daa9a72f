import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-migrations [--target T] [--check]
/// [--allow-data-loss] [--accept-edits] [--code] [--mark-release NAME] [--data DESCRIPTION]
/// [--squash-through MIGRATION]`
///
/// Runs `strata migrations` for each non-test target that depends on Strata or StrataPostgreSQL
/// (or those named
/// with `--target`): writes the next migration file into the target's `Migrations` folder, and
/// the schema snapshot, its diagram and the migrations' checksums into the package's `schemas`
/// folder. With `--code`, or when the target already has it, also writes the target's generated
/// code into `Generated/StrataModels.swift` to check in. With `--check`, writes nothing and fails
/// when anything is missing or out of date.
@main
struct GenerateMigrations: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let options = try Options(arguments)
    let targets: [SourceModuleTarget]
    if options.targetNames.isEmpty {
      targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }.filter(Self.usesStrata)
    } else {
      targets = try options.targetNames.map { name in
        guard let target = try context.package.targets(named: [name]).first as? SourceModuleTarget else {
          throw PluginError("no source target named \(name)")
        }
        return target
      }
    }
    if targets.isEmpty {
      throw PluginError("no target depends on Strata or StrataPostgreSQL; name one with --target")
    }
    if options.data != nil || options.squashThrough != nil, targets.count > 1 {
      throw PluginError(
        "\(options.data != nil ? "a data migration" : "a squash") belongs to one target: name it with --target (\(targets.map(\.name).joined(separator: ", ")))")
    }
    let run = Run(
      tool: try context.tool(named: "strata-migrations").url, packageDirectory: context.package.directoryURL, options: options)
    for target in targets {
      try run.migrations(
        module: target.name, directory: target.directoryURL,
        models: target.sourceFiles(withSuffix: "swift").map(\.url) + target.sourceFiles(withSuffix: "strata").map(\.url),
        runtime: Self.runtime(of: target))
    }
    try run.finish(report: .printed)
  }

  private static func usesStrata(_ target: SourceModuleTarget) -> Bool {
    target.kind != .test && !runtimes(of: target).isEmpty
  }

  /// The Strata runtimes among the target's dependencies (products, or targets in Strata's own
  /// package).
  private static func runtimes(of target: SourceModuleTarget) -> Set<String> {
    Set(target.dependencies.compactMap { dependency in
      switch dependency {
      case .product(let product): return product.name
      case .target(let target): return target.name
      @unknown default: return nil
      }
    }).intersection(["Strata", "StrataPostgreSQL"])
  }

  /// The module the generated code imports: StrataPostgreSQL for a target that depends on it and
  /// not on Strata. (The build plugin decides the same way.)
  static func runtime(of target: SourceModuleTarget) -> String {
    runtimes(of: target) == ["StrataPostgreSQL"] ? "StrataPostgreSQL" : "Strata"
  }
}

/// The command's arguments.
struct Options {
  var targetNames: [String]
  var check: Bool
  var allowDataLoss: Bool
  var acceptEdits: Bool
  var code: Bool
  var markRelease: String?
  /// A data migration in Swift to write as the next migration, by its description.
  var data: String?
  /// The last migration to squash (`strata migrations squash --through`).
  var squashThrough: String?

  init(_ arguments: [String]) throws {
    var extractor = ArgumentExtractor(arguments)
    targetNames = extractor.extractOption(named: "target")
    check = extractor.extractFlag(named: "check") > 0
    allowDataLoss = extractor.extractFlag(named: "allow-data-loss") > 0
    acceptEdits = extractor.extractFlag(named: "accept-edits") > 0
    code = extractor.extractFlag(named: "code") > 0
    let releases = extractor.extractOption(named: "mark-release")
    markRelease = releases.last
    let data = extractor.extractOption(named: "data")
    self.data = data.last
    let squash = extractor.extractOption(named: "squash-through")
    squashThrough = squash.last
    if squashThrough != nil, check || allowDataLoss || acceptEdits || code || markRelease != nil || self.data != nil {
      throw PluginError("--squash-through writes a squash alone: run it without --check, --allow-data-loss, --accept-edits, --code, --mark-release and --data")
    }
    if !extractor.remainingArguments.isEmpty || releases.count > 1 || data.count > 1 || squash.count > 1 {
      throw PluginError(
        "unexpected arguments: \(extractor.remainingArguments.joined(separator: " ")); use --target NAME, --check, --allow-data-loss, --accept-edits, --code, --mark-release NAME, --data DESCRIPTION and --squash-through MIGRATION (each once)")
    }
  }
}

/// Runs `strata migrations` for one target after another and passes on what it says.
///
/// SwiftPM prints a plugin's diagnostics as `error: message`, without their file and line, so
/// in a terminal the tool's `path:line:column: error: message` lines are printed as they are
/// (with paths relative to the package), and one last diagnostic carries the first error's
/// file and line. Xcode shows diagnostics at their lines, so there each one is emitted with its
/// file and line.
final class Run {
  enum Reporting {
    /// Lines printed as the tool wrote them; for SwiftPM.
    case printed
    /// Each diagnostic through the plugin API; for Xcode.
    case diagnostics
  }

  let tool: URL
  let packageDirectory: URL
  let options: Options
  private var status: Int32 = 0
  private var lines: [String] = []

  init(tool: URL, packageDirectory: URL, options: Options) {
    self.tool = tool
    self.packageDirectory = packageDirectory
    self.options = options
  }

  func migrations(module: String, directory: URL, models: [URL], runtime: String = "Strata") throws {
    let schemas = packageDirectory.appending(path: "schemas")
    var arguments = [
      options.squashThrough == nil ? "plan" : "squash", "--module", module, "--root", directory.path(percentEncoded: false),
      "--migrations", directory.appending(path: "Migrations").path(percentEncoded: false),
      "--checksums", schemas.appending(path: "\(module).sum").path(percentEncoded: false),
      "--runtime", runtime,
    ]
    if let through = options.squashThrough {
      // A squash changes no schema: the snapshot and diagram stay as they are.
      arguments += ["--through", through]
    } else {
      arguments += [
        "--snapshot", schemas.appending(path: "\(module).sql").path(percentEncoded: false),
        "--diagram", schemas.appending(path: "\(module).md").path(percentEncoded: false),
      ]
    }
    if options.check { arguments.append("--check") }
    if options.allowDataLoss { arguments.append("--allow-data-loss") }
    if options.acceptEdits { arguments.append("--accept-edits") }
    if let release = options.markRelease { arguments += ["--mark-release", release] }
    if let data = options.data { arguments += ["--data", data] }
    // The checked-in code is among the target's files; once there, it is kept up to date.
    let code = directory.appending(path: "Generated/StrataModels.swift").standardizedFileURL
    let generated = [code, directory.appending(path: "Generated/StrataSchemaModels.swift").standardizedFileURL]
    if options.squashThrough == nil, options.code || models.contains(where: { $0.standardizedFileURL == code }) {
      arguments += ["--code", code.path(percentEncoded: false)]
    }
    arguments += models.filter { !generated.contains($0.standardizedFileURL) }.map { $0.path(percentEncoded: false) }

    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    // One pipe for both streams keeps messages and diagnostics in the order the tool wrote them.
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    lines += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    status = max(status, process.terminationStatus)
  }

  /// Reports what the tool said, and fails when any run failed.
  func finish(report reporting: Reporting) throws {
    let root = packageDirectory.path(percentEncoded: false)
    let prefix = root.hasSuffix("/") ? root : root + "/"
    var errors: [LocatedLine] = []
    for line in lines {
      let located = LocatedLine(line)
      if let located, located.severity == .error { errors.append(located) }
      switch (reporting, located) {
      case (.diagnostics, let located?):
        Diagnostics.emit(located.severity, located.message, file: located.path, line: located.line)
      default:
        print(line.replacingOccurrences(of: prefix, with: ""))
      }
    }
    guard status != 0 else { return }
    // SwiftPM exits 1 whatever the plugin's status; scripts that need to tell "out of date" (2)
    // from errors (1) run `strata migrations --check` themselves.
    // Out of date is `--check`'s finding; an error (an edited migration, a failing statement) is
    // a failure, whichever command met it.
    let failed =
      options.check && errors.isEmpty ? "the migrations do not match the models"
      : options.check ? "generate-migrations --check failed" : "generate-migrations failed"
    guard reporting == .printed, let first = errors.first else { throw PluginError(failed) }
    // An error diagnostic fails the command; this one names the first error's place, in the
    // message for the terminal and as its file and line for editors.
    let place = "\(first.path.replacingOccurrences(of: prefix, with: "")):\(first.line)"
    Diagnostics.error(
      "\(failed): \(errors.count) error\(errors.count == 1 ? "" : "s"), the first at \(place)",
      file: first.path, line: first.line)
  }
}

/// A line of the tool's output in the form `path:line:column: severity: message`.
struct LocatedLine {
  var path: String
  var line: Int
  var severity: Diagnostics.Severity
  var message: String

  init?(_ text: String) {
    let parts = text.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
    guard parts.count == 5, let line = Int(parts[1]), Int(parts[2]) != nil else { return nil }
    switch parts[3].trimmingCharacters(in: .whitespaces) {
    case "error": severity = .error
    case "warning": severity = .warning
    case "note": severity = .remark
    default: return nil
    }
    path = String(parts[0])
    self.line = line
    message = parts[4].trimmingCharacters(in: .whitespaces)
  }
}

struct PluginError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same command for an Xcode project's targets: each one named with `--target`, or every
/// target with Swift files (the tool says nothing for one without tables or migrations). A
/// target's folder, which holds its `Migrations`, is the deepest folder that holds all of its
/// Swift files; the `schemas` folder is next to the project.
extension GenerateMigrations: XcodeCommandPlugin {
  func performCommand(context: XcodePluginContext, arguments: [String]) throws {
    let options = try Options(arguments)
    let project = context.xcodeProject
    let run = Run(tool: try context.tool(named: "strata-migrations").url, packageDirectory: project.directoryURL, options: options)
    for target in project.targets where options.targetNames.isEmpty || options.targetNames.contains(target.displayName) {
      let models = target.inputFiles.map(\.url).filter { ["swift", "strata"].contains($0.pathExtension) }
      guard let first = models.first else { continue }
      var directory = first.deletingLastPathComponent()
      while !models.allSatisfy({ $0.path(percentEncoded: false).hasPrefix(directory.path(percentEncoded: false) + "/") }) {
        directory = directory.deletingLastPathComponent()
      }
      try run.migrations(module: target.product?.name ?? target.displayName, directory: directory, models: models)
    }
    try run.finish(report: .diagnostics)
  }
}
#endif
