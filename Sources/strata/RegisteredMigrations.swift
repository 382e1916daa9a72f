import Strata
import StrataSchema

extension Migration {
  /// A migration file as the app embeds it (what a squash replaces included), for the commands
  /// that migrate: the runtime's own value, as the build plugin's registry makes it.
  ///
  /// - Throws: ``InputError`` for a data migration written in Swift, which only the app's code
  ///   can run.
  init(_ registered: SwiftEmitter.RegisteredMigration) throws {
    if registered.dataMigrationType != nil {
      throw InputError("\(registered.name).swift is a data migration written in Swift, which runs only in the app's code")
    }
    guard registered.isEmbedded else {
      self.init(name: registered.name, checksum: registered.checksum, replacedWithoutItsCode: ())
      return
    }
    self.init(
      name: registered.name, checksum: registered.checksum, isBaseline: registered.isBaseline, compatibleFrom: registered.compatibleFrom,
      isReleased: registered.isReleased, replaces: try registered.replaces.map(Migration.init), sql: registered.sql)
  }
}
