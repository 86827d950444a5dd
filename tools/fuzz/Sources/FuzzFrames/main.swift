import HyzerFraming
import NIOCore

/// The watch side's decoder: any bytes, as many frames as they hold. It may refuse them, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var buffer = ByteBuffer(bytes: UnsafeRawBufferPointer(start: start, count: count))
    while let message = try? LinkFrame.decode(from: &buffer, maxFrameBytes: 64 * 1024) {
        // Whatever decodes must encode again.
        _ = try? LinkFrame.encode(message)
    }
    return 0
}
