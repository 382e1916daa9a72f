import ArgumentParser
import Foundation
import StrataSchema

/// `strata migrations squash --through 0040`: one migration that makes the schema of the
/// migrations through 0040 for new databases (see `MigrationSquash`); the replaced files move to
/// `Migrations/Squashed`.
package struct SquashCommand: ParsableCommand {
  package static let configuration = CommandConfiguration(
    commandName: "squash",
    abstract: "Replace the migrations through one with a single migration of the schema they make, for new databases.",
    discussion: """
      Databases that ran those migrations carry on: one that ran all of them records the squash \
      without running it, and one that ran some runs the others, which move to \
      Migrations/Squashed and stay embedded in the app until you delete that folder. Refuses a \
      squash that would not make the same schema, and one that replaces a schema the \
      compatibility window still keeps working. An interrupted squash is finished by running \
      the command again.
      """)

  @OptionGroup var options: ModuleOptions

  @Option(help: ArgumentHelp("Where the migration files are.", valueName: "dir"))
  var migrations: String

  @Option(help: ArgumentHelp("The last migration to squash, by number or name.", valueName: "migration"))
  var through: String

  @Option(help: ArgumentHelp("The migrations' checksum manifest, to keep up to date.", valueName: "file"))
  var checksums: String?

  package init() {}

  package func validate() throws {
    if options.inputs.isEmpty { throw ValidationError("give the model files, or the directories that hold them") }
  }

  package func run() throws {
    try reportingFailures {
      let archive = (migrations as NSString).appendingPathComponent(MigrationSquash.archiveFolder)
      var files = try MigrationFiles(directory: migrations, root: options.root)
      if try finishInterruptedSquash(files, archive: archive) {
        files = try MigrationFiles(directory: migrations, root: options.root)
      } else {
        var generator = try Generator(inputs: options.inputs, root: options.root)
        generator.runtime = options.runtime
        let settings = try MigrationSettings.read(migrations: migrations)
        let models = try generator.models(for: settings.dialect)
        let window = try CompatibilityWindow.resolve(
          settings, files: files.files, at: SourceLocation(path: MigrationSettings.path(migrations: migrations), line: 1, column: 1))
        let plan = try MigrationSquash.plan(files, through: through, models: models, window: window, moduleName: options.moduleName)
        // The replaced files are copied before the squash is written and removed after it, so
        // that a run cut short leaves either the old history or both, which the next run
        // finishes.
        try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)
        for file in plan.replaced {
          let copy = (archive as NSString).appendingPathComponent((file.path as NSString).lastPathComponent)
          try AtomicFile.write(try String(contentsOfFile: file.path, encoding: .utf8), to: copy)
        }
        let path = (migrations as NSString).appendingPathComponent(plan.name + ".sql")
        try AtomicFile.write(plan.sql, to: path)
        for file in plan.replaced { try FileManager.default.removeItem(atPath: file.path) }
        print("\(options.moduleName): wrote \(path), the schema of \(plan.replaced.count) migrations for new databases, and moved them to \(archive).")
        files = try MigrationFiles(directory: migrations, root: options.root)
      }
      if let checksums, try AtomicFile.write(ChecksumManifest(files: files.files).text(moduleName: options.moduleName), to: checksums) {
        print("\(options.moduleName): updated the migration checksums \(checksums).")
      }
      return 0
    }
  }

  /// Removes the files a squash replaced that a run cut short left beside it (the archive holds
  /// them); returns whether there were any.
  private func finishInterruptedSquash(_ files: MigrationFiles, archive: String) throws -> Bool {
    let names = Set(files.files.map(\.name))
    guard let squash = files.files.last(where: { !$0.replaces.isEmpty && $0.replaces.contains { names.contains($0.name) } }) else {
      return false
    }
    for file in files.files where squash.replaces.contains(where: { $0.name == file.name && $0.checksum == file.checksum }) {
      let copy = (archive as NSString).appendingPathComponent((file.path as NSString).lastPathComponent)
      guard FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: file.path) else {
        throw InputError("\(file.path) is replaced by \(squash.name), but \(copy) does not hold it: restore one from the other")
      }
      try FileManager.default.removeItem(atPath: file.path)
    }
    print("\(options.moduleName): finished the squash \(squash.name), which a run cut short: its replaced migrations are in \(archive).")
    return true
  }
}
