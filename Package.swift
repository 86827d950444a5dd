// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Hyzer",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "HyzerKit", targets: ["HyzerKit"]),
        .library(name: "HubCore", targets: ["HubCore"]),
        .executable(name: "hyzer-hub", targets: ["hyzer-hub"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Pure domain: Foundation only, no I/O.
        .target(name: "HyzerKit"),
        // The seeded courses; the target lives in Assets/ so the JSON files stay at the top level.
        .target(name: "HyzerAssets", path: "Assets", exclude: ["README.md"], resources: [.copy("courses")]),
        // The phone: event store, scoring, voice transcripts, snapshot export.
        .target(
            name: "HubCore",
            dependencies: [
                "HyzerKit", "HyzerAssets",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "hyzer-hub",
            dependencies: ["HubCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "HyzerKitTests", dependencies: ["HyzerKit"]),
        .testTarget(name: "HubCoreTests", dependencies: ["HubCore", "hyzer-hub"]),
    ],
    swiftLanguageModes: [.v6]
)
