import CanonicalJSON
import Testing
import TestSupport

// MARK: - JSONFuzzTests

/// Throws random and mutated input at the parser. A crash fails the whole
/// test run; anything that does parse must survive a serialize/parse round
/// trip unchanged.
@Suite("JSON fuzzing")
struct JSONFuzzTests {
    @Test("random byte strings")
    func randomBytes() {
        var random = SeededRandom(seed: 0xf022)
        let alphabet = Array(#"[]{}:,"\ tfnrue0123456789-+.eEal/u"#.utf8) + [0x00, 0x1f, 0x80, 0xc3, 0xa9, 0xff, 0xed]
        var parsedCount = 0
        for iteration in 0..<10_000 {
            let length = Int.random(in: 0...40, using: &random)
            let input: [UInt8]
            if iteration.isMultiple(of: 2) {
                input = random.bytes(length)
            } else {
                // Bytes drawn from JSON's own alphabet parse far more often.
                input = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
            }
            if checkRoundTrip(input) { parsedCount += 1 }
        }
        #expect(parsedCount > 0)
    }

    @Test("mutated valid JSON")
    func mutatedDocuments() {
        var generator = JSONValueGenerator(seed: 0xbeef)
        var parsedCount = 0
        for _ in 0..<10_000 {
            var bytes = generator.value(depth: 3).canonicalBytes()
            let mutations = Int.random(in: 1...3, using: &generator.random)
            for _ in 0..<mutations {
                mutate(&bytes, using: &generator.random)
            }
            if checkRoundTrip(bytes) { parsedCount += 1 }
        }
        #expect(parsedCount > 0)
    }

    // MARK: - Helpers

    /// Parses `input`; if it is valid, expects serialize → parse to be stable.
    /// Returns whether the input parsed.
    private func checkRoundTrip(_ input: [UInt8]) -> Bool {
        guard let value = try? JSONValue.parse(input, maxDepth: 16) else { return false }
        let bytes = value.canonicalBytes()
        let reparsed = try? JSONValue.parse(bytes, maxDepth: 16)
        #expect(reparsed == value, "input \(input)")
        #expect(reparsed?.canonicalBytes() == bytes)
        return true
    }

    /// Applies one random edit: flip, insert, delete, duplicate or truncate.
    private func mutate(_ bytes: inout [UInt8], using random: inout SeededRandom) {
        let interesting: [UInt8] = Array(#"[]{}:,"\0-.eE"#.utf8) + [0x00, 0x7f, 0x80, 0xff, 0xed, 0xf4]
        let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0 where !bytes.isEmpty:
            bytes[position] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
        case 1:
            bytes.insert(interesting.randomElement(using: &random)!, at: position)
        case 2 where !bytes.isEmpty:
            bytes.remove(at: position)
        case 3 where !bytes.isEmpty:
            let end = min(bytes.count, position + Int.random(in: 1...8, using: &random))
            bytes.insert(contentsOf: bytes[position..<end], at: position)
        case 4:
            bytes.removeSubrange(position...)
        default:
            if !bytes.isEmpty { bytes[position] = interesting.randomElement(using: &random)! }
        }
    }
}
