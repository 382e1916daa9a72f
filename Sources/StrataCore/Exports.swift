// SQL's vocabulary (`Collation`, `ConflictResolution`) is part of the builder's API.
@_exported import StrataSQL
