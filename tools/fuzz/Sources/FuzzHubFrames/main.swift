import HyzerFraming
import NIOCore

/// The hub side's decoding of one frame body: a message, a score, or an unacceptable score with
/// its reason; anything else is refused. Never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let body = ByteBuffer(bytes: UnsafeRawBufferPointer(start: start, count: count))
    _ = try? HubFrameDecoder.inbound(in: body)
    return 0
}
