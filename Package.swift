// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "Strata",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "Strata", targets: ["Strata"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    // Query building: statements, expressions, SQL text and bindings. No GRDB, no SQLite.
    .target(name: "StrataCore"),
    // Execution on SQLite through GRDB: binding, decoding, database setup.
    .target(
      name: "Strata",
      dependencies: [
        "StrataCore",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    .executableTarget(
      name: "strata-bench",
      dependencies: [
        "Strata",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "StrataTests",
      dependencies: ["Strata", .product(name: "GRDBSQLite", package: "GRDB.swift")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
