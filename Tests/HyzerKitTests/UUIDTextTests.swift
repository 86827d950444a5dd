import Foundation
import HyzerKit
import Testing

@Suite("UUID text, written and read without Foundation's formatter")
struct UUIDTextTests {
    @Test("canonicalString is uuidString, and reading it back (either case) gives the same UUID, for 10,000 random ids and the edges")
    func roundTrip() {
        let edges = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        for id in edges + (0..<10_000).map({ _ in UUID() }) {
            #expect(id.canonicalString == id.uuidString)
            #expect(id.withCanonicalUTF8 { String(decoding: $0, as: UTF8.self) } == id.uuidString)
            #expect(UUID(canonicalString: id.uuidString) == id)
            #expect(UUID(canonicalString: id.uuidString.lowercased()) == id)
        }
    }

    @Test("Anything but 8-4-4-4-12 hex is refused (stricter than UUID(uuidString:), which lets a leading space pass)",
          arguments: ["", "not-a-uuid", "6F1C0000-0000-0000-0000-00000000000", "6F1C0000-0000-0000-0000-0000000000011",
                      "6F1C0000x0000-0000-0000-000000000001", "6F1C0000-0000-0000-0000-00000000000G", "{6F1C0000-0000-0000-0000-000000000001}",
                      "6F1C00000000-0000-0000-0000000000010", " 6F1C0000-0000-0000-0000-00000000001", "6F1C0000-0000-0000-0000-0000000000é"])
    func refused(text: String) {
        #expect(UUID(canonicalString: text) == nil)
    }
}
