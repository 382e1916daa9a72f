import ArgumentParser
import StrataCommandLine
import StrataSchema

/// `strata schema`: prints the DDL the models ask for.
struct SchemaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema", abstract: "Print the CREATE statements the models ask for.")

  @OptionGroup var options: ModuleOptions

  @Option(help: ArgumentHelp("The database whose SQL to print: sqlite or postgresql.", valueName: "dialect"))
  var dialect: DatabaseDialect = .sqlite

  func validate() throws {
    if options.inputs.isEmpty { throw ValidationError("give the model files, or the directories that hold them") }
  }

  func run() throws {
    try reportingFailures {
      let models = try Generator(inputs: options.inputs, root: options.root).models(for: dialect)
      ToolOutput.report(models.warnings)
      print(dialect.sql(models.schema))
      for (name, schema) in models.attachedSchemas.sorted(by: { $0.key < $1.key }) {
        // The name is a plain identifier: the translator refuses any other.
        print("\n-- The attached database \"\(name)\":\n" + dialect.sql(schema))
      }
      return 0
    }
  }
}

extension DatabaseDialect: ExpressibleByArgument {}
