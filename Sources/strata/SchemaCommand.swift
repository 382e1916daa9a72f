import StrataSchema

/// `strata schema`: prints the DDL the models ask for.
struct SchemaCommand {
  let generator: Generator

  init(arguments: inout CommandLineArguments) throws {
    try arguments.validate()
    generator = try Generator(inputs: arguments.inputs, root: arguments.value("--root"))
  }

  func run() throws -> Int32 {
    let models = try generator.models()
    report(models.warnings)
    print(SQLRenderer.schema(models.schema))
    return 0
  }
}
