import ArgumentParser
import Foundation
import StrataCommandLine
import StrataSchema

/// `strata migrations`: the migration commands; without a subcommand, `plan`.
struct MigrationsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrations",
    abstract: "Write, check and verify a module's migrations.",
    subcommands: [PlanMigrationsCommand.self, VerifyUpgradesCommand.self, SquashCommand.self],
    defaultSubcommand: PlanMigrationsCommand.self)
}
