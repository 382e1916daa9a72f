/// The access of generated members, from the models' and their types' access.
extension ModelTranslator {

  /// The access of a type, limited by its enclosing types; nil when it is internal.
  func effectiveAccess(of type: TypeDeclaration) -> AccessLevel? {
    var access = type.accessLevel ?? .internal
    var scope = type.scope
    while !scope.isEmpty {
      if let enclosing = declarations[scope.joined(separator: ".")] {
        access = min(access, enclosing.accessLevel ?? .internal)
      }
      scope.removeLast()
    }
    return access
  }

  func memberAccess(of type: TypeDeclaration) -> MemberAccess {
    Self.memberAccess(effectiveAccess(of: type))
  }

  func memberAccess(of property: PropertyDeclaration, in type: TypeDeclaration) -> MemberAccess {
    min(memberAccess(of: type), Self.memberAccess(property.accessLevel ?? .internal))
  }

  /// The lowest access among the types declared in the scanned files that `types` name; types
  /// from other modules are public.
  func typeAccess(_ types: [TypeSyntax], from scope: [String]) -> MemberAccess {
    var access = MemberAccess.public
    func visit(_ type: TypeSyntax) {
      switch type {
      case .named(let components):
        var name: [String] = []
        for component in components {
          name.append(component.name)
          if let declaration = resolve(name.joined(separator: "."), from: scope) {
            access = min(access, memberAccess(of: declaration))
          }
          component.arguments.forEach(visit)
        }
      case .optional(let wrapped), .implicitlyUnwrapped(let wrapped), .array(let wrapped):
        visit(wrapped)
      case .dictionary(let key, let value):
        visit(key)
        visit(value)
      case .unsupported:
        break
      }
    }
    types.forEach(visit)
    return access
  }

  static func memberAccess(_ level: AccessLevel?) -> MemberAccess {
    switch level {
    case .public?, .open?: return .public
    case .package?: return .package
    default: return .internal
    }
  }
}
