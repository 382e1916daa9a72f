struct Game: Table { let id: Int }
// @Table("Games")
struct Match: Table { let id: Int }
// expect: error 3:8 'Match' and 'Game' both map to the table "Games" (SQLite ignores the c
