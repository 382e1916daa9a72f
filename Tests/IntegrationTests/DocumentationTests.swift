import Foundation
import Testing

@testable import StrataSchema

/// The docs' commands hold to the tools: every `strata` subcommand and option they write exists
/// (its `--help` lists it), every `generate-migrations` option is one the command takes, and
/// every `swift run` names an executable of the package.
@Suite struct DocumentationTests {
  static let repository = ConsumerPackageTests.repository

  /// The README and the DocC articles, with their text.
  static let documents: [(name: String, text: String)] = {
    let folders = ["Sources/Strata/Strata.docc", "Sources/StrataPostgreSQL/StrataPostgreSQL.docc", "Documentation"]
    var files = ["README.md"]
    for folder in folders {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)) ?? []
      files += names.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
    }
    return files.compactMap { name in
      (try? String(contentsOf: repository.appendingPathComponent(name), encoding: .utf8)).map { (name, $0) }
    }
  }()

  /// Each command line a document writes that starts with `program`, with the lines a `\`
  /// continues, as one string.
  static func commands(starting program: String) -> [(document: String, command: String)] {
    var found: [(String, String)] = []
    for (name, text) in documents {
      let lines = text.components(separatedBy: "\n")
      var index = 0
      while index < lines.count {
        defer { index += 1 }
        guard let range = lines[index].range(of: program) else { continue }
        var command = String(lines[index][range.lowerBound...])
        while command.hasSuffix("\\"), index + 1 < lines.count {
          command.removeLast()
          index += 1
          command += " " + lines[index].trimmingCharacters(in: .whitespaces)
        }
        // A command in prose ends where its code span does, which may be on the next line.
        if !lines[index].hasPrefix(" "), lines[index].contains("`"), !command.contains("`"), index + 1 < lines.count {
          index += 1
          command += " " + lines[index].trimmingCharacters(in: .whitespaces)
        }
        if let tick = command.firstIndex(of: "`") { command = String(command[..<tick]) }
        if let comment = command.range(of: " #") { command = String(command[..<comment.lowerBound]) }
        found.append((name, command))
      }
    }
    return found
  }

  /// The options a command line gives: `--name` tokens.
  static func options(in command: String) -> [String] {
    command.split(whereSeparator: { $0 == " " || $0 == "[" || $0 == "]" || $0 == "=" }).map(String.init)
      .filter { $0.hasPrefix("--") && $0.count > 2 }
  }

  @Test func everyStrataSubcommandAndOptionTheDocsWriteExists() throws {
    let tool = try #require(CommandLineTests.tool, "strata is not built")
    var help: [String: String] = [:]
    let subcommands = ["generate", "migrations", "schema", "import", "sql", "db"]
    // `strata migrations` without a subcommand of its own runs `plan`.
    let migrationCommands = ["verify-upgrades", "squash"]
    for command in subcommands.map({ [$0] }) + [["migrations", "plan"], ["db", "reset"]] + migrationCommands.map({ ["migrations", $0] }) {
      let process = Process()
      process.executableURL = tool
      process.arguments = command + ["--help"]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      help[command.joined(separator: " ")] = String(decoding: output, as: UTF8.self)
    }
    let lines = Self.commands(starting: "strata ").filter { command in
      // "strata generate …", not prose that names the tool.
      subcommands.contains { command.command.hasPrefix("strata \($0)") }
    }
    #expect(lines.count > 5, "the docs show the strata tool's commands")
    for (document, command) in lines {
      let words = command.dropFirst("strata ".count).split(separator: " ").map(String.init)
      var subcommand = words[0]
      if subcommand == "migrations" {
        subcommand += " " + (words.count > 1 && migrationCommands.contains(words[1]) ? words[1] : "plan")
      } else if subcommand == "db" {
        subcommand += " reset"
      }
      for option in Self.options(in: command) {
        #expect(help[subcommand]?.contains(option) == true, "\(document): `\(command)` writes \(option), which strata \(subcommand) does not take")
      }
    }
  }

  @Test func everyGenerateMigrationsOptionTheDocsWriteIsTheCommands() throws {
    let plugin = try String(contentsOf: Self.repository.appendingPathComponent("Plugins/GenerateMigrations/GenerateMigrations.swift"), encoding: .utf8)
    let lines = Self.commands(starting: "generate-migrations")
    #expect(lines.count > 5)
    for (document, command) in lines {
      for option in Self.options(in: command) where option != "--allow-writing-to-package-directory" {
        #expect(plugin.contains("\"\(option.dropFirst(2))\""), "\(document): `\(command)` writes \(option), which generate-migrations does not take")
      }
    }
  }

  @Test func everySwiftRunNamesAnExecutableOfThePackage() throws {
    // This package's, and those of the packages beside it (Benchmarks/…).
    var manifests = [try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)]
    let benchmarks = Self.repository.appendingPathComponent("Benchmarks")
    for folder in (try? FileManager.default.contentsOfDirectory(atPath: benchmarks.path)) ?? [] {
      if let text = try? String(contentsOf: benchmarks.appendingPathComponent("\(folder)/Package.swift"), encoding: .utf8) {
        manifests.append(text)
      }
    }
    let manifest = manifests.joined(separator: "\n")
    let lines = Self.commands(starting: "swift run ")
    #expect(!lines.isEmpty)
    for (document, command) in lines {
      // Options, and the values of those that take one.
      var words: [Substring] = []
      var skipsValue = false
      for word in command.split(separator: " ").dropFirst(2) {
        if skipsValue { skipsValue = false; continue }
        if ["-c", "--configuration", "--traits", "--package-path"].contains(word) { skipsValue = true; continue }
        if !word.hasPrefix("-") { words.append(word) }
      }
      guard let product = words.first else { continue }
      #expect(
        manifest.contains(".executableTarget(name: \"\(product)\"") || manifest.contains("name: \"\(product)\""),
        "\(document): `\(command)` runs \(product), which is not an executable of the package")
    }
  }
}
