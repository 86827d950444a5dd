import Foundation
import HyzerKit
import HyzerHarness
import Testing

@Suite("JSON syntax, checked strictly before a frame is decoded")
struct JSONSyntaxTests {
    @Test("Valid JSON texts pass", arguments: [
        #"{}"#, #"[]"#, #" {"a" : [1, -0, 0.5, 1e9, 1E+2, -3.25e-7, true, false, null] } "#, "\t\r\n\"x\"\n",
        #"{"a":"\u00e9\n\t\"\\\/\b\f\r","b":"\ud83d\ude00"}"#, "\"\u{E9}\u{4E2D}\u{1F600}\"", #"0"#, #"-12"#,
        String(repeating: "[", count: 64) + String(repeating: "]", count: 64),
    ])
    func valid(text: String) {
        #expect(JSONSyntax.problem(in: Array(text.utf8)) == nil)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil, "Foundation reads it too")
    }

    @Test("Anything else names what is wrong and where", arguments: [
        ([UInt8](), "the text ends where a value was expected at byte 0"),
        (Array(#"{"a":1,}"#.utf8), "'}' where a key (a string) was expected at byte 7"),
        (Array(#"{"a" 1}"#.utf8), "'1' where ':' after a key was expected at byte 5"),
        (Array(#"[1 2]"#.utf8), "'2' where ',' or ']' in an array was expected at byte 3"),
        (Array(#"{"a":1} x"#.utf8), "more after the end of the JSON value at byte 8"),
        (Array(#"03"#.utf8), "a number with a leading zero at byte 0"),
        (Array(#"[-]"#.utf8), "a '-' without digits after it at byte 1"),
        (Array(#"3."#.utf8), "a number with no digits after its '.' at byte 0"),
        (Array(#"3e"#.utf8), "a number with no digits in its exponent at byte 0"),
        (Array(#"+1"#.utf8), "'+' where a value was expected at byte 0"),
        (Array(#"[NaN]"#.utf8), "'N' where a value was expected at byte 1"),
        (Array(#"tru"#.utf8), "'t' where a value was expected at byte 0"),
        (Array(#""a"#.utf8), "a string that is not closed at byte 2"),
        (Array("\"a\u{7}\"".utf8), "a raw control character (0x07) inside a string (write it as \\u0007) at byte 2"),
        (Array("\"a\tb\"".utf8), "a raw control character (0x09) inside a string (write it as \\u0009) at byte 2"),
        ([0x22, 0xFF, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),
        ([0x22, 0xC0, 0xAF, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),          // overlong "/"
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),    // an encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),  // past U+10FFFF
        ([0x22, 0xE2, 0x82, 0x22], "bytes that are not UTF-8 inside a string at byte 1"),          // cut short
        ([0xEF, 0xBB, 0xBF] + Array("{}".utf8), "byte 0xEF where a value was expected at byte 0"),  // a byte order mark
        (Array(#""\x""#.utf8), #"an unknown escape '\x' (allowed: \" \\ \/ \b \f \n \r \t \uXXXX) at byte 1"#),
        (Array(#""\u12""#.utf8), #"a \u escape without four hex digits at byte 1"#),
        (Array(#""\ud800""#.utf8), #"a high surrogate (\uD800) not followed by a low one at byte 1"#),
        (Array(#""\ud800\u0041""#.utf8), #"a high surrogate (\uD800) not followed by a low one at byte 1"#),
        (Array(#""\udc00""#.utf8), #"a low surrogate (\uDC00) with no high surrogate before it at byte 1"#),
        (Array(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).map { $0.asciiValue! },
         "arrays and objects nested deeper than 64 levels at byte 64"),
    ] as [([UInt8], String)])
    func invalid(bytes: [UInt8], problem: String) {
        #expect(JSONSyntax.problem(in: bytes) == problem)
    }

    @Test("A number is whole as written, not as a Double reads it", arguments: [
        ("3", true), ("-3", true), ("0", true), ("-0", true), ("3.0", true), ("3e0", true), ("30e-1", true), ("0.3e1", true), ("3E+2", true),
        ("1e400", true), ("0e-999", true), ("0.000", true), ("3.5", false), ("3.000000000000000000001", false), ("2.99999999999999999999", false),
        ("1e-400", false), ("0.5e1", true), ("0.55e1", false), ("35e-1", false), ("-0.1", false),
    ])
    func wholeNumbers(text: String, whole: Bool) {
        #expect(JSONSyntax.isWholeNumber(text) == whole)
    }

    @Test("Numbers are found with where they are, escaped keys read")
    func numbersWithPaths() {
        let text = #"{"body":{"ab":[1,{"c":-2.5e3}],"s":"3","t":true,"n":null},"x":0}"#
        let found = Array(text.utf8).withUnsafeBytes { JSONSyntax.numbers(in: $0) }
        #expect(found.map(\.path) == ["body.ab[0]", "body.ab[1].c", "x"])
        #expect(found.map(\.text) == ["1", "-2.5e3", "0"])
    }

    @Test("On thousands of randomly mutated frames, whatever passes the check Foundation reads too")
    func mutatedFrames() throws {
        var random = try SeededRandom.fromEnvironment(for: "JSON syntax mutations")
        let frame = Array(#"{"body":{"createdAt":"2026-11-22T10:00:00.000Z","deviceID":"watch-1","hole":1,"id":"6F1C0000-0000-0000-0000-000000000001","playerID":"guest:Zo\u00eb","reportedByPlayerID":"guest:Zoë","roundID":"6F1C0000-0000-0000-0000-000000000002","source":"crown","strokes":3,"supersedesEventID":null,"x":[1.5e3,-0,true,{"y":"\ud83d\ude00"}]},"type":"score"}"#.utf8)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 \tnultrfa\u"#.utf8) + [0x00, 0x07, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xFF]
        var passed = 0
        for _ in 0..<8_000 {
            var bytes = frame
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = alphabet.randomElement(using: &random)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                }
            }
            guard JSONSyntax.problem(in: bytes) == nil else { continue }
            // A number no Double holds (1.5e370) is JSON; Foundation refuses it, and the link then
            // names the field it is in (LinkFrameCodec.numberProblem) rather than "not JSON".
            let numbers = bytes.withUnsafeBytes { JSONSyntax.numbers(in: $0) }
            guard numbers.allSatisfy({ Double($0.text)?.isFinite == true }) else { continue }
            passed += 1
            #expect((try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil,
                    "passed the check but not Foundation (replay): \(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(passed > 100, "too few mutations stayed JSON to compare (replay): \(passed)")
    }
}
