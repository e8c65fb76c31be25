import Digests
import Testing
@testable import ICalendar
import TestSupport

/// `BlockDigest.of` is the first 128 bits of SHA-256 over the context's seed and the
/// block, big-endian: the value stored in `block_hash`, which imports by earlier
/// versions wrote and later ones must find again.
@Suite struct BlockDigestTests {
    @Test func isTheSHA256OfTheSeedAndTheBlock() {
        var random = SeededRandom(seed: 0xB10C)
        let digester = SHA256Digester()
        let contexts = [BlockContext(defaultZone: nil, zoneTexts: []),
                        BlockContext(defaultZone: "Europe/Berlin", zoneTexts: ["BEGIN:VTIMEZONE\r\nTZID:X\r\nEND:VTIMEZONE\r\n"])]
        for round in 0..<200 {
            let block = random.bytes(Int(random.next() % 600))
            let context = contexts[round % 2]
            let seed = withUnsafeBytes(of: context.seed) { Array($0) }
            let expected = BlockDigest(SHA256.hash(seed + block))
            let got = block.withUnsafeBufferPointer { BlockDigest.of($0, context: context, digester: digester) }
            #expect(got == expected, "round \(round)")
        }
        // One fixed value: SHA-256("abc") begins ba7816bf8f01cfea 414140de5dae2223.
        #expect(BlockDigest([0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23])
                == BlockDigest(high: 0xba7816bf8f01cfea, low: 0x414140de5dae2223))
    }
}
