// @Index(on: "gameID, rank")
// @Unique(on: "score, score")
// @Index(on: "")
struct Player: Table {
  let id: Int
  // @Index
  var gameID: Int
  // @Index(on: "gameID, score")
  var score = 0
}
// expect: error 1:11 'rank' is not a column of 'Player'
// expect: error 2:12 'score' is listed twice
// expect: error 3:11 @Index(on:) takes the properties to index, in order
// expect: error 8:13 @Index(on:) lists a table's columns; put it above the struct
