// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Hyzer",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "HyzerKit", targets: ["HyzerKit"]),
    ],
    targets: [
        // Pure domain: Foundation only, no I/O.
        .target(name: "HyzerKit"),
        .testTarget(name: "HyzerKitTests", dependencies: ["HyzerKit"]),
    ],
    swiftLanguageModes: [.v6]
)
