// `import Strata` brings in the query builder and GRDB. GRDB has a `Table` type of its own;
// this alias makes `Table` mean Strata's protocol in files that import Strata, and lets a file
// that also imports another `Table` (SwiftUI's) write `Strata.Table`.
@_exported import GRDB
@_exported import StrataCore

/// A Swift type stored as the rows of an SQLite table; see ``StrataCore/Table``.
public typealias Table = StrataCore.Table

/// A model stored as an FTS5 full-text index (`StrataCore.FTS5`). GRDB's own `FTS5` (its
/// tokenizer API) stays `GRDB.FTS5`.
public typealias FTS5 = StrataCore.FTS5
