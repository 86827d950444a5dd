import Foundation

/// SplitMix64: a small, fast generator whose whole state starts as its seed, so a run that picked
/// "random" timings can be run again with the same ones.
///
/// Tests take it from `fromEnvironment(for:)`: the seed is `HYZER_TEST_SEED` when set, otherwise a
/// fresh one, printed. Put `replay` in the comment of every assertion that depends on the draws.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public static let environmentVariable = "HYZER_TEST_SEED"

    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The seed from `HYZER_TEST_SEED`, or a new one; either way printed, naming `test`.
    public static func fromEnvironment(for test: String) throws -> SeededRandom {
        let generator: SeededRandom
        if let text = ProcessInfo.processInfo.environment[environmentVariable] {
            guard let seed = UInt64(text) else {
                throw TestFailure("\(environmentVariable) must be an unsigned 64-bit integer; got \"\(text)\".")
            }
            generator = SeededRandom(seed: seed)
        } else {
            generator = SeededRandom(seed: UInt64.random(in: .min ... .max))
        }
        print("\(test): \(environmentVariable)=\(generator.seed)")
        return generator
    }

    /// How to run a test again with these draws, for an assertion's comment.
    public func replay(filter: String) -> String {
        "replay with \(Self.environmentVariable)=\(seed) swift test --filter \(filter)"
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
