// Changesets and schemas are the server's vocabulary as much as the engine's: an app that
// imports StrataSyncServer names them (`Changeset`, `SyncSchema`) without importing the module
// that defines them.
@_exported import StrataSyncCore
