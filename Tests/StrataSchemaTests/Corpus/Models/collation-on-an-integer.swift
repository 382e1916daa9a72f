struct Item: Table {
  let id: Int
  // @Column(collate: .nocase)
  var count = 0
}
// expect: error 3:14 @Column(collate:) compares text, but 'count' is stored as INTEGER; rem
