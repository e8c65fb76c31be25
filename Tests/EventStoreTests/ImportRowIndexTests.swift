import CalendarGenerator
import Testing
@testable import EventStore
@testable import ICalendar

/// The writer's row index (`ImportRowIndex`) against a plain map of key strings, with
/// key hashes squeezed into a few values so that most keys collide: every lookup must
/// still find exactly the row of its key, and each source must own exactly its rows.
struct ImportRowIndexTests {
    typealias Key = ImportWriter.EventKey

    /// A hash with only `buckets` values (collisions on purpose).
    static func tinyHash(_ key: Key, buckets: UInt64) -> UInt64 { ImportRowIndex.keyHash(key) % buckets }

    @Test(arguments: [1, 3, 64] as [UInt64])
    func randomOperationsAgreeWithAMapOfKeys(buckets: UInt64) throws {
        var rng = SplitMix64(seed: 12 + buckets)
        var index = ImportRowIndex()
        // The model: the live row id of each key, the key of each stored id, each row's source.
        var model: [Key: Int64] = [:]
        var stored: [Int64: Key] = [:]
        var sourceOf: [Int64: Int64] = [:]
        var nextID: Int64 = 1
        let keys = (0..<40).map { Key(uid: "uid-\($0 % 20)", rid: $0 < 20 ? "" : "2026010\($0 % 10)T090000Z") }
        for _ in 0..<2_000 {
            let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
            let hash = Self.tinyHash(key, buckets: buckets)
            let found = index.slot(of: key, hash: hash) { stored[$0] == key }
            #expect(found.map { index[$0].id } == model[key])
            switch Int.random(in: 0..<3, using: &rng) {
            case 0 where found == nil:
                let id = nextID
                nextID += 1
                let source = Int64.random(in: 1...3, using: &rng)
                index.append(ImportRowIndex.Row(id: id, sourceID: source, modified: nil, hash: nil, keyHash: hash, block: nil,
                                                sequence: 0), key: key)
                model[key] = id
                stored[id] = key
                sourceOf[id] = source
            case 1:
                guard let slot = found else { continue }
                index.remove(slot)
                #expect(index[slot].removed)
                model[key] = nil
                sourceOf[index[slot].id] = nil
            default:
                guard let slot = found else { continue }
                let source = Int64.random(in: 1...3, using: &rng)
                index[slot].sourceID = source
                sourceOf[index[slot].id] = source
            }
        }
        for key in keys {
            let found = index.slot(of: key, hash: Self.tinyHash(key, buckets: buckets)) { stored[$0] == key }
            #expect(found.map { index[$0].id } == model[key])
        }
        for source in 1...3 as ClosedRange<Int64> {
            let owned = Set((index.owned[source] ?? []).map { index[$0].id })
            #expect(owned == Set(sourceOf.filter { $0.value == source }.keys))
        }
    }

    @Test func digestAndContentHashStorageFormsRoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let digest = BlockDigest(high: rng.next(), low: rng.next())
            var bytes = [UInt8](repeating: 0, count: 32)
            bytes.withUnsafeMutableBytes { digest.writeHex(into: $0) }
            #expect(String(decoding: bytes, as: UTF8.self) == digest.hex)
            #expect(bytes.withUnsafeBytes { BlockDigest(hexBytes: $0) } == digest)
            let value = rng.next()
            #expect(ImportRowIndex.contentHash(ContentHash.hex(value)) == value)
        }
        #expect(ImportRowIndex.contentHash("0123456789abcdeg") == nil)
        #expect(ImportRowIndex.contentHash("0123") == nil)
        #expect(Array("0123456789ABCDEF0123456789abcdef".utf8).withUnsafeBytes { BlockDigest(hexBytes: $0) }
            == BlockDigest(high: 0x0123_4567_89AB_CDEF, low: 0x0123_4567_89AB_CDEF))
    }
}
