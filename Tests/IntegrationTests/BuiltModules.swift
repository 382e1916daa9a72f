import Foundation

/// The modules and objects Strata's own build made, next to the tests, for code the tests
/// compile apart as another package's: without Strata's package name, such code sees Strata's
/// public API alone, as a user's package does.
enum BuiltModules {
  /// The build's products folder (where the test bundle is).
  static let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  /// The Swift modules of every target.
  static let modules = products.appendingPathComponent("Modules")

  /// `swiftc`'s arguments that find the Swift modules and the C modules they import: the module
  /// maps SwiftPM wrote for C targets, and those the dependencies' checkouts hold.
  static func compilerArguments() throws -> [String] {
    let manager = FileManager.default
    let checkouts = ConsumerPackageTests.repository.appendingPathComponent(".build/checkouts")
    var maps = try manager.contentsOfDirectory(atPath: products.path).filter { $0.hasSuffix(".build") }.map {
      products.appendingPathComponent("\($0)/module.modulemap")
    }
    for package in try manager.contentsOfDirectory(atPath: checkouts.path) {
      let sources = checkouts.appendingPathComponent("\(package)/Sources")
      for target in (try? manager.contentsOfDirectory(atPath: sources.path)) ?? [] {
        maps += ["\(target)/module.modulemap", "\(target)/include/module.modulemap"].map { sources.appendingPathComponent($0) }
      }
    }
    return ["-swift-version", "6", "-I", modules.path]
      + maps.filter { manager.fileExists(atPath: $0.path) }.sorted { $0.path < $1.path }.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
  }
}
