// Changesets, rows and schemas are the server's vocabulary as much as the engine's: an app that
// imports StrataSyncServer uses them (`RowID`'s neighbours, `SyncSchema`) without naming the
// module that defines them.
@_exported import StrataSyncCore
