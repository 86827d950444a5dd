import Foundation

/// An optional field written as `null` when absent instead of being left out, so every documented
/// field name of a file or frame is always there (the snapshot and event formats are contracts a
/// third-party reader relies on). With it, synthesized `Codable` needs no hand-written `encode(to:)`.
///
/// Decoding accepts `null` and a missing key alike.
@propertyWrapper
public struct EncodedNull<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            wrappedValue = nil
        } else if Value.self == UUID.self {
            // As the schemas write ids (see `decodeStrictUUID`).
            wrappedValue = try container.decodeStrictUUID() as? Value
        } else {
            wrappedValue = try container.decode(Value.self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as nil, as it would for a plain optional.
    public func decode<Value>(_ type: EncodedNull<Value>.Type, forKey key: Key) throws -> EncodedNull<Value> {
        try decodeIfPresent(type, forKey: key) ?? EncodedNull(wrappedValue: nil)
    }
}
