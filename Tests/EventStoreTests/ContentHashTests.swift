import Testing
@testable import EventStore

/// A file's fingerprint is the first 64 bits of its SHA-256 (stored; must not drift).
@Suite struct ContentHashTests {
    @Test func isTheFirst64BitsOfSHA256() {
        // FIPS 180-2's "abc": ba7816bf 8f01cfea 414140de 5dae2223 …
        #expect(ContentHash.of(bytes: Array("abc".utf8)) == "ba7816bf8f01cfea")
        // The empty input: e3b0c442 98fc1c14 …
        #expect(ContentHash.of(bytes: []) == "e3b0c44298fc1c14")
    }

    @Test func leadingZerosAreKept() {
        #expect(ContentHash.hex(0x00ab) == "00000000000000ab")
    }
}
