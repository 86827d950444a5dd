// swift-tools-version:6.0
// libFuzzer harnesses for the parsers that read bytes from outside: the link's frame decoders
// (watch side and hub side, every message type) and the watch's standings.json reader.
// Build and run with tools/fuzz/run (see README.md); they need -sanitize=fuzzer, so they are a
// package of their own rather than targets of the main one.
import PackageDescription

let package = Package(
    name: "HyzerFuzz",
    dependencies: [
        .package(name: "Hyzer", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // HyzerFraming, not HyzerLink: the frame decoders without TLS, so BoringSSL is not built
        // again with the sanitizers.
        .executableTarget(name: "FuzzFrames", dependencies: [
            .product(name: "HyzerFraming", package: "Hyzer"), .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .executableTarget(name: "FuzzHubFrames", dependencies: [
            .product(name: "HyzerFraming", package: "Hyzer"), .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .executableTarget(name: "FuzzSnapshot", dependencies: [
            .product(name: "HyzerKit", package: "Hyzer"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
