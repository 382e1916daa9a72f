/// What the result builders whose result is a list of SQL fragments (``PredicateBuilder``,
/// ``OrderingBuilder``) share: blocks, `if`/`else`, optional parts and `for` loops concatenate
/// their fragments in order. Each builder says what one expression becomes.
public protocol QueryFragmentListBuilder {}

extension QueryFragmentListBuilder {
  public static func buildBlock(_ components: [QueryFragment]...) -> [QueryFragment] {
    components.flatMap { $0 }
  }

  public static func buildEither(first component: [QueryFragment]) -> [QueryFragment] {
    component
  }

  public static func buildEither(second component: [QueryFragment]) -> [QueryFragment] {
    component
  }

  public static func buildOptional(_ component: [QueryFragment]?) -> [QueryFragment] {
    component ?? []
  }

  public static func buildArray(_ components: [[QueryFragment]]) -> [QueryFragment] {
    components.flatMap { $0 }
  }
}
