// @Table("grdb_migrations")
struct Migration: Table { let identifier: String; let id: Int }
// expect: error 1:11 table name "grdb_migrations" is the table GRDB's migrator or Strata records
