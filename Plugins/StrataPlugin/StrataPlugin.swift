import Foundation
import PackagePlugin

/// The build-tool plugin: on every build where a model file or migration changed, runs
/// `strata-build` (`strata generate`'s work, without the command line's other commands) to write
/// the target's conformances and migration registry into the build directory. Nothing it writes
/// is checked in.
///
/// A target whose conformances are checked in (`Generated/StrataModels.swift`, written by
/// `generate-migrations --code`) compiles that file instead; the plugin then checks that it still
/// matches the models and fails the build when it does not.
@main
struct StrataPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let models = target.sourceFiles(withSuffix: "swift").map(\.url) + target.sourceFiles(withSuffix: "strata").map(\.url)
    return [
      try Self.command(
        module: target.name, directory: target.directoryURL, models: models,
        tool: try context.tool(named: "strata-build").url, workDirectory: context.pluginWorkDirectoryURL,
        runtime: Self.runtime(of: target))
    ]
  }

  /// The module the generated code imports: StrataPostgreSQL for a target that depends on it and
  /// not on Strata (a server that never opens SQLite builds neither GRDB nor SQLite's runtime).
  /// (`generate-migrations` decides the same way.)
  static func runtime(of target: SourceModuleTarget) -> String {
    let names = Set(target.dependencies.compactMap { dependency -> String? in
      switch dependency {
      case .product(let product): return product.name
      case .target(let target): return target.name
      @unknown default: return nil
      }
    })
    return names.contains("StrataPostgreSQL") && !names.contains("Strata") ? "StrataPostgreSQL" : "Strata"
  }

  /// The `strata-build` command, with `strata generate`'s arguments, for one module whose folder
  /// is `directory`.
  static func command(
    module: String, directory: URL, models: [URL], tool: URL, workDirectory: URL, runtime: String = "Strata"
  ) throws -> Command {
    let migrationsDirectory = directory.appending(path: "Migrations")
    let output = workDirectory.appending(path: "StrataModels.swift")
    let registry = workDirectory.appending(path: "StrataMigrations.swift")
    let checkedIn = directory.appending(path: "Generated/StrataModels.swift").standardizedFileURL
    let checkedInFiles = [checkedIn, directory.appending(path: "Generated/StrataSchemaModels.swift").standardizedFileURL]
    let isCheckedIn = models.contains { $0.standardizedFileURL == checkedIn }
    let modelFiles = models.filter { !checkedInFiles.contains($0.standardizedFileURL) }
    var code = isCheckedIn
      ? ["--checked-in", checkedIn.path(percentEncoded: false)] : ["--output", output.path(percentEncoded: false)]
    // Each Swift file's models in a generated file of their own, so that an edit of one model file
    // changes one generated file and the build recompiles that one, not every model's
    // conformances. The names are `ModuleGeneration.perFileOutputName(of:)`'s, which the tool
    // writes (this plugin cannot link it).
    let perFileDirectory = workDirectory.appending(path: "StrataModels")
    let perFileOutputs = isCheckedIn
      ? []
      : modelFiles.filter { $0.pathExtension == "swift" }.map { perFileDirectory.appending(path: "StrataModels+" + $0.lastPathComponent) }
    if !isCheckedIn { code += ["--per-file-outputs", perFileDirectory.path(percentEncoded: false)] }
    // Schema files declare models that the build compiles from this generated file.
    let schemaModels = workDirectory.appending(path: "StrataSchemaModels.swift")
    // …unless the generated code is checked in, which then holds the schema files' models too.
    let hasSchemaFiles = !isCheckedIn && models.contains { $0.pathExtension == "strata" }
    if hasSchemaFiles { code += ["--schema-models-output", schemaModels.path(percentEncoded: false)] }
    return .buildCommand(
      displayName: "Generating Strata code for \(module)",
      executable: tool,
      arguments: ["--module", module, "--root", directory.path(percentEncoded: false), "--runtime", runtime] + code + [
        "--migrations", migrationsDirectory.path(percentEncoded: false), "--registry-output", registry.path(percentEncoded: false),
      ] + modelFiles.map { $0.path(percentEncoded: false) },
      inputFiles: models + sqlFiles(in: migrationsDirectory),
      outputFiles: (isCheckedIn ? [registry] : [output, registry]) + perFileOutputs + (hasSchemaFiles ? [schemaModels] : []))
  }

  /// The migration files, the main database's and each attached database's (one folder each).
  static func sqlFiles(in directory: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().flatMap { name -> [URL] in
      let url = directory.appending(path: name)
      if name.lowercased().hasSuffix(".sql") { return [url] }
      let inner = (try? FileManager.default.contentsOfDirectory(atPath: url.path(percentEncoded: false))) ?? []
      return inner.filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".sql") }.sorted().map { url.appending(path: $0) }
    }
  }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same command for a target of an Xcode project; its folder, which holds its `Migrations`,
/// is the deepest folder that holds all of its Swift files.
extension StrataPlugin: XcodeBuildToolPlugin {
  func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
    let models = target.inputFiles.map(\.url).filter { ["swift", "strata"].contains($0.pathExtension) }
    guard let first = models.first else { return [] }
    var directory = first.deletingLastPathComponent()
    while !models.allSatisfy({ $0.path(percentEncoded: false).hasPrefix(directory.path(percentEncoded: false) + "/") }) {
      directory = directory.deletingLastPathComponent()
    }
    return [
      try Self.command(
        module: target.product?.name ?? target.displayName, directory: directory, models: models,
        tool: try context.tool(named: "strata-build").url, workDirectory: context.pluginWorkDirectoryURL)
    ]
  }
}
#endif
