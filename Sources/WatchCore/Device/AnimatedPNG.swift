import Foundation
import HyzerStorage

/// Builds an animated PNG (APNG) from still PNG frames of one size: each frame's image data is
/// kept as it is (no re-encoding), with its own delay. Browsers, image viewers and `ffprobe` play it.
public enum AnimatedPNG {
    public struct Frame: Sendable {
        public let png: Data
        /// How long the frame shows, in seconds (stored in milliseconds).
        public let delay: TimeInterval
        public init(png: Data, delay: TimeInterval) {
            self.png = png
            self.delay = delay
        }
    }

    public struct FormatError: Error, CustomStringConvertible {
        public let description: String
    }

    static let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// The chunks of a PNG file, in order: (type, data).
    public static func chunks(_ png: Data) throws -> [(type: String, data: Data)] {
        let bytes = [UInt8](png)
        guard bytes.count >= 8, Data(bytes[0..<8]) == signature else { throw FormatError(description: "not a PNG file") }
        var result: [(String, Data)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 12 + length <= bytes.count else { throw FormatError(description: "a PNG chunk runs past the end of the file") }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append((type, Data(bytes[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
            if type == "IEND" { break }
        }
        return result
    }

    /// The APNG of `frames`, played `loops` times (0: forever).
    public static func assemble(_ frames: [Frame], loops: UInt32 = 0) throws -> Data {
        guard let first = frames.first else { throw FormatError(description: "a recording needs at least one frame") }
        let firstChunks = try chunks(first.png)
        guard let header = firstChunks.first(where: { $0.type == "IHDR" })?.data, header.count == 13 else {
            throw FormatError(description: "the first frame has no image header")
        }
        var out = signature
        out.append(chunk("IHDR", header))
        out.append(chunk("acTL", be32(UInt32(frames.count)) + be32(loops)))
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let parts = index == 0 ? firstChunks : try chunks(frame.png)
            guard parts.first(where: { $0.type == "IHDR" })?.data == header else {
                throw FormatError(description: "frame \(index + 1) is not the size and kind of the first")
            }
            let milliseconds = UInt16(clamping: Int((frame.delay * 1000).rounded()))
            // fcTL: sequence, width, height, x, y, delay num/den, dispose none, blend source.
            var control = be32(sequence) + header.prefix(8) + be32(0) + be32(0)
            control += be16(milliseconds) + be16(1000) + Data([0, 0])
            out.append(chunk("fcTL", control))
            sequence += 1
            for part in parts where part.type == "IDAT" {
                if index == 0 {
                    out.append(chunk("IDAT", part.data))
                } else {
                    out.append(chunk("fdAT", be32(sequence) + part.data))
                    sequence += 1
                }
            }
        }
        out.append(chunk("IEND", Data()))
        return out
    }

    /// The frame count and delays (seconds) of an APNG, read back (what tests and `ffprobe` see).
    public static func frameDelays(_ apng: Data) throws -> [TimeInterval] {
        try chunks(apng).filter { $0.type == "fcTL" }.map { chunk in
            let b = [UInt8](chunk.data)
            guard b.count == 26 else { throw FormatError(description: "a frame control chunk has the wrong size") }
            let num = Double(Int(b[20]) << 8 | Int(b[21])), den = Double(Int(b[22]) << 8 | Int(b[23]))
            return num / (den == 0 ? 100 : den)
        }
    }

    static func chunk(_ type: String, _ data: Data) -> Data {
        let typeBytes = Data(type.utf8)
        return be32(UInt32(data.count)) + typeBytes + data + be32(CRC32.checksum(typeBytes + data))
    }

    static func be32(_ value: UInt32) -> Data { Data([UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]) }
    static func be16(_ value: UInt16) -> Data { Data([UInt8(value >> 8), UInt8(value & 0xFF)]) }

}
