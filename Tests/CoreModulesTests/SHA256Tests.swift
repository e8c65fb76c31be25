import Foundation
@testable import Digests
import Testing
import TestSupport

// MARK: - SHA256Tests

@Suite("SHA256")
struct SHA256Tests {
    // MARK: - NIST vectors (FIPS 180-4 examples)

    @Test("NIST test vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(SHA256.hexDigest(message) == expected)
        #expect(SHA256.hexDigest(Array(message.utf8)) == expected)
        #expect(hex(SHA256.hash(Array(message.utf8))) == expected)
    }

    @Test("one million 'a'")
    func millionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hexDigest([UInt8](repeating: 0x61, count: 1_000_000)) == expected)

        // Also fed in uneven chunks through the String overload.
        var hasher = SHA256()
        let chunk = String(repeating: "a", count: 999)
        for _ in 0..<1001 { hasher.update(chunk) }
        hasher.update("a")
        #expect(hex(hasher.finalize()) == expected)
    }

    // MARK: - A digester reused for many messages

    @Test("a reused digester gives each message's own hash, whatever came before")
    func reusedDigester() {
        var generator = SeededRandom(seed: 0xD16E57)
        let digester = SHA256Digester()
        for round in 0..<300 {
            let prefix = generator.bytes(round % 3 == 0 ? 0 : 16)
            let message = generator.bytes(round % 7 == 0 ? 0 : Int(generator.next() % 2000))
            let got = prefix.withUnsafeBytes { p in message.withUnsafeBytes { m in digester.digest(p, m) { Array($0) } } }
            #expect(got == SHA256.hash(prefix + message), "round \(round)")
        }
        #expect(digester.digest(UnsafeRawBufferPointer(start: nil, count: 0), Array("abc".utf8).withUnsafeBytes { $0 }) { hex(Array($0)) }
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    // MARK: - Incremental hashing

    @Test("split updates at every offset equal the one-shot hash")
    func splitAtEveryOffset() {
        var generator = SeededRandom(seed: 0x5a256)
        let input = generator.bytes(200)
        let expected = SHA256.hash(input)
        #expect(expected.count == 32)

        for split in 0...130 {
            var hasher = SHA256()
            hasher.update(input[..<split])
            hasher.update(input[split...])
            #expect(hasher.finalize() == expected, "split at \(split)")

            // Three pieces, the middle one of `split % 70` bytes.
            let end = min(split + split % 70, input.count)
            var threeWay = SHA256()
            input.withUnsafeBytes { raw in
                threeWay.update(UnsafeRawBufferPointer(rebasing: raw[..<split]))
                threeWay.update(UnsafeRawBufferPointer(rebasing: raw[split..<end]))
                threeWay.update(UnsafeRawBufferPointer(rebasing: raw[end...]))
            }
            #expect(threeWay.finalize() == expected, "split at \(split), \(end)")
        }
    }

    @Test("byte-at-a-time and non-contiguous collections")
    func byteAtATimeAndNonContiguous() {
        var generator = SeededRandom(seed: 42)
        let input = generator.bytes(3000)
        let expected = SHA256.hash(input)

        var single = SHA256()
        for byte in input { single.update(CollectionOfOne(byte)) }
        #expect(single.finalize() == expected)

        // A lazy map is not contiguous, exercising the buffered fallback.
        #expect(SHA256.hash(input.lazy.map { $0 }) == expected)
        #expect(SHA256.hash(repeatElement(UInt8(7), count: 2500)) == SHA256.hash([UInt8](repeating: 7, count: 2500)))
    }

    @Test("finalize does not consume the hasher; copies fork the state")
    func finalizeIsNonDestructive() {
        var hasher = SHA256()
        hasher.update("ab")
        let fork = hasher
        #expect(hex(hasher.finalize()) == SHA256.hexDigest("ab"))
        hasher.update("c")
        #expect(hex(hasher.finalize()) == SHA256.hexDigest("abc"))
        #expect(hex(fork.finalize()) == SHA256.hexDigest("ab"))
    }

    @Test("UTF-8 string input")
    func utf8Strings() {
        #expect(SHA256.hexDigest("Zürich 東京 😀") == SHA256.hexDigest(Array("Zürich 東京 😀".utf8)))
    }

    // MARK: - Cross-check with coreutils

    @Test(
        "matches sha256sum for random inputs",
        .enabled(if: ExternalTool.sha256sum != nil, "sha256sum not installed")
    )
    func matchesSha256sum() throws {
        var generator = SeededRandom(seed: 2024)
        for length in [0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 65_537, 300_000] {
            let input = generator.bytes(length)
            let output = try ExternalTool.run(ExternalTool.sha256sum!, ["-b", "-"], input: input)
            #expect(output.status == 0, "\(output.stderr)")
            let reference = String(decoding: output.stdout.prefix(64), as: UTF8.self)
            #expect(SHA256.hexDigest(input) == reference, "length \(length)")
        }
    }

    // MARK: - Helpers

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
