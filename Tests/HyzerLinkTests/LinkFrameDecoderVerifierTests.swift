import Foundation
import HyzerHarness
import HyzerKit
import HyzerLink
import NIOCore
import NIOTestUtils
import Testing

@Suite("Link frame decoder under NIO's verifier")
struct LinkFrameDecoderVerifierTests {
    @Test("NIO's ByteToMessageDecoderVerifier accepts the frame decoder: whole, drip-fed a byte at a time, and many frames at once")
    func verifier() async throws {
        try await offThePool {
            let pairs = try LinkFrameCodecTests.messages.map { message in
                (ByteBuffer(bytes: try LinkFrame.encode(message)), [message])
            }
            try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) {
                LinkFrameDecoder(maxFrameBytes: LinkProtocol.maxFrameBytes)
            }
        }
    }
}
