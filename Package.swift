// swift-tools-version:6.1
import PackageDescription

/// Release executables are linked as plain, position-dependent executables: the dynamic loader
/// then has no relative relocations to apply (about 107,000 in the watch, linked with
/// --static-swift-stdlib) and fewer pages to copy at every start. A headless watch's first frame
/// (spawn → drawn): 25.9 → 24.0 ms, median of 31 starts each, alternated with the PIE build. Debug builds keep the
/// default.
let fastStart: [LinkerSetting] = [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release))]

/// Concrete generic types (a dictionary keyed by a struct of the module's own) get their metadata
/// through direct accessor calls instead of from their mangled names at run time: found by name,
/// each one's generic requirements (`Key: Hashable`) were checked by a conformance lookup that
/// scans all ~7,000 conformance records of the binary. The watch's first frame: 25.4 → 23.5 M
/// instructions (callgrind), spawn → drawn 18.9 → 18.1 ms (100 interleaved starts each). Not on
/// the library products (HyzerKit, HyzerLink) nor what they build on (HyzerStorage), so that a
/// package can still depend on them by version (SwiftPM refuses unsafe flags in versioned
/// dependencies).
let directMetadata: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(platforms: [.linux], configuration: .release))]

let package = Package(
    name: "Hyzer",
    // Linux only (inotify, Glibc, SDL2 from Debian): no Apple platform is claimed.
    products: [
        // What a third-party watch or tool written in Swift links: the domain and the link.
        .library(name: "HyzerKit", targets: ["HyzerKit"]),
        .library(name: "HyzerFraming", targets: ["HyzerFraming"]),
        .library(name: "HyzerLink", targets: ["HyzerLink"]),
        .executable(name: "hyzer-hub", targets: ["hyzer-hub"]),
        .executable(name: "hyzer-watch", targets: ["hyzer-watch"]),
        .executable(name: "hyzer-bench", targets: ["hyzer-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The phone's face: HTTP and WebSocket without hand-written protocol code. No traits:
        // swift-configuration is not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Property-based tests of the scoring rule (seeded cases, shrunk counterexamples).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Pure domain: Foundation only, no I/O.
        .target(name: "HyzerKit"),
        // The seeded courses; the target lives in Assets/ so the JSON files stay at the top level.
        .target(name: "HyzerAssets", path: "Assets", exclude: ["README.md"], resources: [.copy("courses"), .copy("rounds")]),
        // Hyzer's one way of writing files (replaced whole, created once, appended to; durable or
        // not) and inter-process file locks.
        .target(name: "HyzerStorage", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // The link's messages and framing, both ends: what a third party's watch speaks, and what
        // the fuzzers read, without TLS (so fuzzing does not build BoringSSL with sanitizers).
        .target(
            name: "HyzerFraming",
            dependencies: [
                "HyzerKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The socket link: handshake, server, watch-side client with its durable outbox (over HyzerFraming).
        .target(
            name: "HyzerLink",
            dependencies: [
                "HyzerKit", "HyzerStorage", "HyzerFraming",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Only SHA-256, for the hub certificate's fingerprint. Making the certificate
                // (swift-certificates) is the hub's (HubCore.HubIdentity): the watch does not
                // link it, and every conformance lookup at its start scans ~900 fewer records.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The watch, without SDL: state machine, crown, haptics, snapshot reading, layout.
        .target(
            name: "WatchCore",
            dependencies: [
                "HyzerKit", "HyzerLink", "HyzerStorage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: directMetadata,
            linkerSettings: fastStart
        ),
        // The phone: event store, scoring, voice transcripts, snapshot export.
        .target(
            name: "HubCore",
            dependencies: [
                "HyzerKit", "HyzerLink", "HyzerStorage", "HyzerAssets",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The hub's TLS identity: its self-signed certificate (HubIdentity).
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // SQLite's own C calls, for the one hot statement bound without GRDB's boxing (HubStore.insert).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: fastStart
        ),
        // The cloud: PostgreSQL standing in for CloudKit, and the sync engine that uploads a phone's
        // events and downloads the others' (LISTEN/NOTIFY plus a cursor). See docs/SYNC.md.
        .target(
            name: "HubCloud",
            dependencies: [
                "HubCore", "HyzerKit", "HyzerStorage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The phone's face: the seeds' phone screens as a web page that `serve` serves, live over a
        // WebSocket. The page (HTML, CSS, JavaScript) is compiled in, so the binary is the whole app.
        .target(
            name: "HubWeb",
            dependencies: [
                "HubCore", "HyzerKit", "HyzerLink",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/app.css"), .embedInCode("Page/app.js")]
        ),
        // What the three executables share on the command line: --version, logging options, typed arguments.
        .target(
            name: "HyzerCLI",
            dependencies: [
                "HyzerLink",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "hyzer-hub",
            dependencies: [
                "HubCore", "HubCloud", "HubWeb", "HyzerLink", "HyzerStorage", "HyzerCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // SDL2 + SDL2_ttf + fontconfig through a plain module map (see Sources/CSDL2/shim.h); SDL2_image
        // is opened at the first screenshot.
        .systemLibrary(
            name: "CSDL2",
            path: "Sources/CSDL2",
            providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev", "libfontconfig-dev"])]
        ),
        .executableTarget(
            name: "hyzer-watch",
            dependencies: [
                "WatchCore", "HyzerLink", "HyzerStorage", "CSDL2", "HyzerCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: directMetadata,
            // The toolchain's static-stdlib link exports every symbol of the package's own objects
            // (~22,500: NIO, BoringSSL, the watch's modules) for dladdr. Nothing looks them up, but
            // the Swift runtime's backtrace setup calls dladdr at every start, which walks them
            // all, and the loader pages them in: without them (~570 left) the first frame comes
            // ~0.7 ms sooner (hyzer-bench: watch start; README).
            // Linker/static-cxx holds two linker scripts found before GCC's own: the link file's
            // -lstdc++ and -lgcc_s then take the static libstdc++ and unwinder (as -static-libstdc++
            // and -static-libgcc would, which the link file's explicit -lstdc++ defeats), so the
            // watch does not load and relocate libstdc++.so and libgcc_s.so at every start:
            // spawn → first frame 16.5 → 14.5 ms (100 interleaved starts each). SDL_image, opened at
            // the first screenshot, brings the shared libstdc++ with its image libraries; the two
            // copies do not meet, as the watch exports no symbols. Both archives come with the
            // Swift toolchain's own Debian requirements (libstdc++-12-dev, libgcc-12-dev).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic", "-L", Context.packageDirectory + "/Linker/static-cxx"], .when(platforms: [.linux], configuration: .release))]
        ),
        // Every budget of DESIGN.md measured next to the physical limit, in one run (release build).
        .executableTarget(
            name: "hyzer-bench",
            dependencies: [
                "HyzerKit", "HyzerLink", "HyzerStorage", "HubCore", "HubCloud", "WatchCore", "HyzerCLI", "HyzerHarness",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // A page following the phone's face over its WebSocket.
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]
        ),
        // The voice corpus is read from the source tree by path, not bundled.
        .testTarget(name: "HyzerKitTests", dependencies: ["HyzerKit", "HyzerHarness", .product(name: "PropertyBased", package: "swift-property-based")],
                    exclude: ["Voice/voice-corpus.txt"]),
        // Running the built executables on temporary homes, and waiting without sleeping: what the
        // tests and the bench share.
        .target(
            name: "HyzerHarness",
            dependencies: [
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "HyzerLinkTests",
            dependencies: [
                "HyzerKit", "HyzerFraming", "HyzerLink", "HyzerStorage", "HyzerHarness", "hyzer-hub", "hyzer-link-client",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]
        ),
        // The phone's face in Debian's Chromium (phone_face.py, Selenium), beside a real serve and watch.
        .testTarget(name: "HubWebTests", dependencies: ["HyzerHarness", "hyzer-hub", "hyzer-watch"], exclude: ["phone_face.py"]),
        .testTarget(name: "HyzerStorageTests", dependencies: ["HyzerStorage", "HyzerHarness"]),
        .testTarget(name: "HubCoreTests", dependencies: ["HubCore", "HyzerKit", "HyzerHarness", "hyzer-hub", .product(name: "GRDB", package: "GRDB.swift")]),
        // Several phones through a real PostgreSQL server (tools/test starts one; cloud_proxy.py cuts one phone off).
        .testTarget(name: "CloudTests", dependencies: ["HubCloud", "HubCore", "HyzerKit", "HyzerHarness", "hyzer-hub", "hyzer-watch",
                                               .product(name: "Logging", package: "swift-log"), .product(name: "PostgresNIO", package: "postgres-nio")],
                    exclude: ["cloud_proxy.py", "attacks.sh"]),
        .testTarget(name: "HyzerBenchTests", dependencies: ["HyzerHarness", "hyzer-bench", "hyzer-hub", "hyzer-watch"]),
        // Links SDL_ttf and fontconfig, which hyzer-watch opens with dlopen, to hold its function
        // types to their headers (TextLibrariesTests).
        .testTarget(name: "WatchCoreTests", dependencies: ["WatchCore", "HyzerKit", "HyzerLink", "CSDL2", "HyzerHarness", "hyzer-hub", "hyzer-watch",
                                                   .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                                   .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
                    linkerSettings: [.linkedLibrary("SDL2_ttf"), .linkedLibrary("fontconfig")]),
        // A faceless watch for the link's end-to-end tests: the watch-side link code in its own
        // process, so a test can SIGKILL it with a non-empty outbox.
        .executableTarget(
            name: "hyzer-link-client",
            dependencies: ["HyzerKit", "HyzerLink", "HyzerStorage", "WatchCore",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            path: "Tests/HyzerLinkClient"
        ),
        // Tests/ThirdPartyClient holds a Python watch written from the docs alone; HyzerLinkTests runs it.
    ],
    swiftLanguageModes: [.v6]
)
