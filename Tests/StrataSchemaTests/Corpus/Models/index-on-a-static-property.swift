struct Item: Table {
  let id: Int
  // @Unique
  static var shared = 0
}
// expect: error 3:6 @Unique on static property 'shared' does nothing: only stored instance
