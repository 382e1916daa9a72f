// expect: accepted
// @Index(on: "gameID, score")
// @Unique(on: "gameID, name")
// @Index(on: "name")
struct Player: Table {
  let id: Int
  var gameID: Int
  // @Column("player_name")
  var name = ""
  var score = 0
}
/* expect-schema
CREATE TABLE "players" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "gameID" INTEGER NOT NULL,
  "player_name" TEXT NOT NULL DEFAULT '',
  "score" INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX "index_players_on_gameID_score" ON "players"("gameID", "score");
CREATE UNIQUE INDEX "index_players_on_gameID_player_name" ON "players"("gameID", "player_name");
CREATE INDEX "index_players_on_player_name" ON "players"("player_name");
*/
