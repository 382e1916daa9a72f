struct Game: Table { let id: Int }
struct Player: Table { let id: Int; let gameID: Game.ID }
// @Table("index_players_on_gameID")
struct Odd: Table { let id: Int }
// expect: error 2:41 the index Strata creates for "players"."gameID" is named "index_player
