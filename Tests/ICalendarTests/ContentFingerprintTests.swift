import Testing
@testable import ICalendar
import TestSupport

/// `contentFingerprint` is stored (`event.content_hash`): it must stay FNV-1a 64 over
/// the parts without their CRs, each followed by 0xFF, as 16 lowercase hex digits.
@Suite struct ContentFingerprintTests {
    /// The definition, byte by byte.
    static func reference(_ parts: [String]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for b in part.utf8 where b != 13 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
            h = (h ^ 0xFF) &* 0x0000_0100_0000_01B3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    @Test func isFNV1aWithoutCarriageReturns() {
        var random = SeededRandom(seed: 0xF17)
        let alphabet = Array("ab\r\n:;é€ \r\r".unicodeScalars)
        for round in 0..<500 {
            let text = String(String.UnicodeScalarView((0..<Int(random.next() % 400)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
            let start = round % 3 == 0 ? "" : "20260601T090000Z"
            #expect(contentFingerprint(text, start) == Self.reference([text, start]), "round \(round)")
        }
        // Fixed values: FNV-1a 64 of the empty string is its offset basis.
        #expect(contentFingerprint() == "cbf29ce484222325")
        #expect(contentFingerprint("a\r\nb") == contentFingerprint("a\nb"))
        #expect(contentFingerprint("\r") == contentFingerprint(""))
    }
}
