// swift-tools-version:6.1
// Strata on PostgreSQL beside Fluent, in one run: a package of its own, so that Strata's build
// and CI never compile Fluent. `swift run -c release peers postgres://user@host/postgres`.
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name: the checkout's, whatever it is called.
let strata = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
  name: "PostgreSQLPeers",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
    .package(url: "https://github.com/vapor/fluent-postgres-driver", from: "2.14.0"),
  ],
  targets: [
    .executableTarget(
      name: "peers",
      dependencies: [
        .product(name: "StrataPostgreSQL", package: strata.lastPathComponent.lowercased()),
        .product(name: "FluentKit", package: "fluent-kit"),
        .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
      ],
      plugins: [.plugin(name: "StrataPlugin", package: strata.lastPathComponent.lowercased())]
    )
  ],
  swiftLanguageModes: [.v6]
)
