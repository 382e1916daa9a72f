import Foundation
import PackagePlugin

/// The build-tool plugin: on every build where a model file or migration changed, runs
/// `strata generate` to write the target's conformances and migration registry into the build
/// directory. Nothing it writes is checked in.
@main
struct StrataPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let swiftFiles = target.sourceFiles(withSuffix: "swift").map(\.url)
    let migrationsDirectory = target.directoryURL.appending(path: "Migrations")
    let migrationFiles = Self.sqlFiles(in: migrationsDirectory)
    let output = context.pluginWorkDirectoryURL
    let models = output.appending(path: "StrataModels.swift")
    let registry = output.appending(path: "StrataMigrations.swift")
    return [
      .buildCommand(
        displayName: "Generating Strata code for \(target.name)",
        executable: try context.tool(named: "strata").url,
        arguments: [
          "generate", "--module", target.name, "--root", target.directoryURL.path(percentEncoded: false),
          "--output", models.path(percentEncoded: false),
          "--migrations", migrationsDirectory.path(percentEncoded: false), "--registry-output", registry.path(percentEncoded: false),
        ] + swiftFiles.map { $0.path(percentEncoded: false) },
        inputFiles: swiftFiles + migrationFiles,
        outputFiles: [models, registry])
    ]
  }

  static func sqlFiles(in directory: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))) ?? []
    return names.filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".sql") }.sorted().map { directory.appending(path: $0) }
  }
}
