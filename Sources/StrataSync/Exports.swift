// Changesets and the merge rules are the engine's vocabulary: an app that imports StrataSync
// uses them without naming the module that defines them (which the sync server shares).
@_exported import StrataSyncCore
