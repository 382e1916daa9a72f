/// What a foreign key does when its referenced row is deleted or updated.
public enum ReferentialAction: String, Hashable, Sendable, CaseIterable {
  case cascade = "CASCADE", setNull = "SET NULL", setDefault = "SET DEFAULT", restrict = "RESTRICT"
  case noAction = "NO ACTION"
}
