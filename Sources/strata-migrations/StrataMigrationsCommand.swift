// `strata-migrations`: the `generate-migrations` command plugin's tool, `strata migrations plan`
// and `squash` alone. Without the runtimes `strata` links for `verify-upgrades` and `database`,
// so that an app whose package turns on the PostgreSQL trait does not build postgres-nio and
// SwiftNIO a second time, for the host, the first time it generates migrations.
import ArgumentParser
import StrataCommandLine

@main
struct StrataMigrationsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "strata-migrations",
    abstract: "Write and check a module's migrations: the generate-migrations plugin's tool (`strata migrations` has these and more).",
    version: StrataVersion.current,
    subcommands: [PlanMigrationsCommand.self, SquashCommand.self],
    defaultSubcommand: PlanMigrationsCommand.self)
}
