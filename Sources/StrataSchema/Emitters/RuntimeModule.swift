/// The module the generated Swift imports: the runtime the target runs its statements on,
/// `Strata` (SQLite, through GRDB) or `StrataPostgreSQL`. Both re-export `StrataCore`, where the
/// protocols and types the generated code names live, so only the import differs.
public enum RuntimeModule: String, Sendable, CaseIterable {
  case strata = "Strata"
  case postgreSQL = "StrataPostgreSQL"
}
