// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "Strata",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "Strata", targets: ["Strata"]),
    // A separate product behind the PostgreSQL trait, so that apps on SQLite alone neither
    // build nor resolve postgres-nio and SwiftNIO.
    .library(name: "StrataPostgreSQL", targets: ["StrataPostgreSQL"]),
    // `@Dependency(\.defaultDatabase)`, for apps that use swift-dependencies, behind the
    // Dependencies trait: an app that does not ask for it resolves none of swift-dependencies'
    // packages, and one that does builds its `Dependencies` library alone, no code generator.
    .library(name: "StrataDependencies", targets: ["StrataDependencies"]),
    // Sync's engine: replicas of `// @Synced` tables that merge. Apps that do not sync never
    // build it.
    .library(name: "StrataSync", targets: ["StrataSync"]),
    // Sync through a server of the app team's: the client (URLSession, no SwiftNIO) and the
    // server (Hummingbird and PostgreSQL, behind the SyncServer trait).
    .library(name: "StrataSyncClient", targets: ["StrataSyncClient"]),
    .library(name: "StrataSyncServer", targets: ["StrataSyncServer"]),
    .executable(name: "strata", targets: ["strata"]),
    .plugin(name: "StrataPlugin", targets: ["StrataPlugin"]),
    .plugin(name: "GenerateMigrations", targets: ["GenerateMigrations"]),
  ],
  // What an app opts into. SwiftPM resolves a dependency only when a trait it is used under is
  // on (Swift 6.1 and later), so an app that asks for neither resolves GRDB and
  // swift-argument-parser (the migrations command's) alone.
  traits: [
    .trait(name: "PostgreSQL", description: "StrataPostgreSQL, the runtime on PostgreSQL through postgres-nio"),
    .trait(name: "Dependencies", description: "StrataDependencies, @Dependency(\\.defaultDatabase) with swift-dependencies"),
    .trait(
      name: "SyncServer", description: "StrataSyncServer, a sync server on Hummingbird and PostgreSQL",
      enabledTraits: ["PostgreSQL"]),
    .default(enabledTraits: []),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.9.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
  ],
  targets: [
    // SQL's vocabulary and quoting, shared by the query builder and the generator. No dependencies.
    .target(name: "StrataSQL"),
    // Query building: statements, expressions, SQL text and bindings. No GRDB, no SQLite.
    .target(name: "StrataCore", dependencies: ["StrataSQL"]),
    // Execution on SQLite through GRDB: binding, decoding, database setup.
    .target(
      name: "Strata",
      dependencies: [
        "StrataCore",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    // Execution on PostgreSQL through postgres-nio: binding, decoding, pooled connections,
    // transactions, migrations. No GRDB.
    .target(
      name: "StrataPostgreSQL",
      dependencies: [
        "StrataCore", .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
      ]
    ),
    // The database as a swift-dependencies dependency, which live queries read too.
    .target(
      name: "StrataDependencies",
      dependencies: [
        "Strata", .product(name: "Dependencies", package: "swift-dependencies", condition: .when(traits: ["Dependencies"])),
      ]
    ),
    // Sync's engine: the changes the capture triggers record, changesets, and merging them. It
    // knows nothing of networks; transports move changesets.
    .target(name: "StrataSync", dependencies: ["Strata", "StrataSQL", "StrataSyncCore"]),
    // What every store of synced rows shares, SQLite's replicas and the PostgreSQL server:
    // changesets, their binary format, and the merge rules. No database.
    .target(name: "StrataSyncCore", dependencies: ["StrataCore"]),
    // The app's side of sync through a server: pushes, pulls, status. Foundation's URLSession,
    // so that an Apple app builds no SwiftNIO.
    .target(name: "StrataSyncClient", dependencies: ["StrataSync", .product(name: "GRDB", package: "GRDB.swift")]),
    // The server: the app's synced tables in PostgreSQL, who may read and write what, and the
    // HTTP and WebSocket endpoints, on Hummingbird. Empty unless the SyncServer trait is on.
    .target(
      name: "StrataSyncServer",
      dependencies: [
        "StrataSyncCore", "StrataPostgreSQL", "StrataSQL",
        .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["SyncServer"])),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: .when(traits: ["SyncServer"])),
      ]),
    // The generator: Swift model front-end, schema model, emitters, migration planner.
    .target(
      name: "StrataSchema",
      dependencies: ["StrataSQL", .product(name: "GRDBSQLite", package: "GRDB.swift")]
    ),
    // The commands that need the generator alone, which both tools below run.
    .target(
      name: "StrataCommandLine",
      dependencies: ["StrataSchema", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .executableTarget(
      name: "strata",
      // The runtimes too, for `migrations verify-upgrades`, which migrates as an app does; the
      // PostgreSQL one is empty unless the app asked for its trait. (SwiftPM 6.3 does not drop a
      // dependency on a target of the same package under a trait's condition.)
      dependencies: [
        "StrataCommandLine", "StrataSchema", "Strata", "StrataPostgreSQL", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The generate-migrations plugin's tool: `strata migrations plan` and `squash` without the
    // runtimes. SwiftPM builds a plugin's tool for the host, apart from the app's build, so a
    // tool linking StrataPostgreSQL built postgres-nio and SwiftNIO twice in an app with the
    // PostgreSQL trait.
    .executableTarget(name: "strata-migrations", dependencies: ["StrataCommandLine"]),
    // The build plugin's tool: `strata generate` alone, without swift-argument-parser, because
    // SwiftPM builds it before anything else in every consumer's clean build.
    .executableTarget(name: "strata-build", dependencies: ["StrataSchema"]),
    .plugin(name: "StrataPlugin", capability: .buildTool(), dependencies: ["strata-build"]),
    .plugin(
      name: "GenerateMigrations",
      capability: .command(
        intent: .custom(
          verb: "generate-migrations",
          description: "Write the migration that brings the checked-in migrations up to the models"),
        permissions: [
          .writeToPackageDirectory(
            reason: "Writes the new migration file into the target's Migrations folder and the schema snapshot into schemas/")
        ]),
      dependencies: ["strata-migrations"]
    ),
    // The example app: the seeds' Scorekeeper, built with the plugin like a user's target.
    .executableTarget(name: "scorekeeper", dependencies: ["Strata", "StrataSyncClient"], plugins: ["StrataPlugin"]),
    // The same app as a server on PostgreSQL (StrataPostgreSQL), and its sync server.
    .executableTarget(
      name: "scorekeeper-server", dependencies: ["StrataPostgreSQL", "StrataSyncServer"], exclude: ["Migrations/strata.json"],
      plugins: ["StrataPlugin"]),
    .executableTarget(
      name: "strata-bench",
      dependencies: [
        "Strata",
        "StrataSync",
        "StrataSyncClient",
        "StrataSyncServer",
        "StrataPostgreSQL",
        "StrataSchema",
        "StrataBenchAllocations",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      plugins: ["StrataPlugin"]
    ),
    // The benchmark's allocation counter: `malloc` and its siblings defined in the benchmark's
    // executable, in front of the C library's (Linux); nothing else links it.
    .target(name: "StrataBenchAllocations"),
    // The sync fault harness: PostgreSQL, the sync server and many devices as processes, faults
    // injected between and into them, and a checker of the history they leave.
    .executableTarget(
      name: "strata-sync-harness",
      dependencies: [
        "Strata", "StrataSync", "StrataSyncClient", "StrataSyncServer", "StrataPostgreSQL", "StrataSchema",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      // The server's PostgreSQL migrations, which the harness runs with psql when it moves the
      // server to a newer schema.
      exclude: ["Migrations/strata.json", "ServerMigrations"],
      plugins: ["StrataPlugin"]
    ),
    // What several test targets share: threads for tests that wait on other processes.
    .target(name: "StrataTestSupport", path: "Tests/Support"),
    .testTarget(
      name: "StrataTests",
      // The schema generator too, to run the migrations it writes on GRDB's migrator and to
      // write the PostgreSQL schema of the models the runtime tests run on both databases.
      dependencies: [
        "Strata", "StrataPostgreSQL", "StrataSchema", "StrataTestSupport", .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      plugins: ["StrataPlugin"]
    ),
    .testTarget(name: "StrataSQLTests", dependencies: ["StrataSQL"]),
    .testTarget(
      name: "StrataSyncTests",
      // The server's tests too: the same models, as PostgreSQL tables the generator writes, a
      // server on a loopback port, and clients over real HTTP and WebSocket.
      dependencies: [
        "StrataSync", "StrataSyncClient", "StrataSyncServer", "StrataSchema", "StrataSQL", "StrataTestSupport",
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket", condition: .when(traits: ["SyncServer"])),
      ],
      plugins: ["StrataPlugin"]),
    .testTarget(name: "StrataDependenciesTests", dependencies: ["StrataDependencies"], plugins: ["StrataPlugin"]),
    .testTarget(name: "StrataSchemaTests", dependencies: ["StrataSchema", "StrataSQL", "StrataTestSupport"], exclude: ["Fixtures", "Corpus"]),
    // Builds a scratch package that uses Strata like a user's (Tests/ConsumerPackage).
    .testTarget(name: "IntegrationTests", dependencies: ["StrataSchema", "StrataSQL", "StrataTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)

// The documentation is built in CI (`swift package generate-documentation`). No target uses the
// DocC plugin, so an app that depends on Strata does not resolve it (ConsumerPackageTests).
package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
