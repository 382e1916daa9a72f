import StrataSchema

/// `strata schema`: prints the DDL the models ask for.
struct SchemaCommand {
  let generator: Generator

  init(arguments: inout CommandLineArguments) throws {
    try arguments.validate()
    generator = try Generator(inputs: arguments.inputs, root: arguments.value("--root"))
  }

  func run() throws -> Int32 {
    print(SQLRenderer.schema(try generator.models().schema))
    return 0
  }
}
