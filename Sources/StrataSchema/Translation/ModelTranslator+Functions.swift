// `// @DatabaseFunction` functions, from their declarations to what the emitter writes.

extension ModelTranslator {
  mutating func translateDatabaseFunction(_ function: DatabaseFunctionDeclaration) -> DatabaseFunctionModel {
    let options = Annotations.read(function.annotations, on: .function, diagnostics: &diagnostics)
    let arguments = function.arguments.map { argument in
      DatabaseFunctionModel.Argument(
        label: argument.label, swiftType: argument.type.swiftText,
        unwrappedSwiftType: argument.type.unwrapped.type.swiftText,
        defaultValue: argument.defaultValue?.text)
    }
    var model = DatabaseFunctionModel(
      sqlName: options.functionName ?? function.name, swiftName: function.name,
      scope: function.scope.isEmpty ? nil : function.scope.joined(separator: "."),
      access: Self.memberAccess(function.accessLevel), arguments: arguments,
      aggregate: function.aggregateParameter.map { parameter in
        .init(label: parameter.label, rowLabels: parameter.isTuple ? function.arguments.map(\.name) : nil)
      },
      resultType: function.result?.swiftText, isThrowing: function.isThrowing, isDeterministic: options.isDeterministic,
      location: function.location)
    model.isProperty = function.isProperty
    return model
  }
}
