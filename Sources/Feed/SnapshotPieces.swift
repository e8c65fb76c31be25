import Agenda
import FeedProtocol

/// Where a snapshot message's pieces start and how each is encoded: the message is its
/// head (`{"type":"snapshot",…,"sections":`), the sections array written from the items'
/// own JSON, and its tail (`,"seq":…,"view":…}` and the newline), in exactly the order
/// and bytes `Messages.snapshot` writes.
struct SnapshotPieces: Sendable {
    /// A position in the sections array: before item `item` of section `section`; item 0
    /// means before the section itself (its separator and opening). The end is
    /// `(sections.count, 0)`.
    struct Cut: Sendable, Comparable {
        var section: Int
        var item: Int

        static func < (a: Cut, b: Cut) -> Bool { (a.section, a.item) < (b.section, b.item) }
    }

    /// A section's bytes around its items: `{"date":…,"id":…,"items":[` and `],"label":…}`.
    struct Frame: Sendable {
        var open: [UInt8]
        var close: [UInt8]
    }

    let head: [UInt8]
    let tail: [UInt8]
    let sections: [AgendaSection]
    let frames: [Frame]
    /// Where each piece starts; the first is `(0, 0)`.
    let cuts: [Cut]
    /// The byte offset in the message where each piece starts.
    let starts: [Int]
    let byteCount: Int

    init(epoch: String, seq: Int64, snapshot: AgendaSnapshot, pieceSize: Int) {
        // The message of the same state without sections, cut around its empty array:
        // its head and tail are then the encoder's own bytes. (`"sections":[]` cannot
        // occur earlier: the digest is hex, and a quote inside the epoch is escaped.)
        let bare = AgendaSnapshot(view: snapshot.view, sections: [], digest: snapshot.digest, today: snapshot.today)
        let message = Messages.snapshot(epoch: epoch, seq: seq, snapshot: bare)
        let marker = Array("\"\(FeedMessage.sectionsKey)\":[]".utf8)
        let at = Self.firstIndex(of: marker, in: message)!
        head = Array(message[..<(at + marker.count - 2)])
        tail = Array(message[(at + marker.count)...])
        sections = snapshot.sections
        frames = snapshot.sections.map { section in
            var empty = section
            empty.items = []
            let json = empty.json
            // The date and label before and after the items hold no "[".
            let open = json.firstIndex(of: UInt8(ascii: "["))! + 1
            return Frame(open: Array(json[..<open]), close: Array(json[open...]))
        }
        var cuts = [Cut(section: 0, item: 0)]
        var starts = [0]
        var total = head.count + 1
        var inPiece = total
        for (s, section) in sections.enumerated() {
            if s > 0, inPiece >= pieceSize {
                cuts.append(Cut(section: s, item: 0))
                starts.append(total)
                inPiece = 0
            }
            let opening = (s > 0 ? 1 : 0) + frames[s].open.count
            inPiece += opening
            total += opening
            for (i, item) in section.items.enumerated() {
                if i > 0, inPiece >= pieceSize {
                    cuts.append(Cut(section: s, item: i))
                    starts.append(total)
                    inPiece = 0
                }
                let length = (i > 0 ? 1 : 0) + item.jsonCount
                inPiece += length
                total += length
            }
            inPiece += frames[s].close.count
            total += frames[s].close.count
        }
        self.cuts = cuts
        self.starts = starts
        byteCount = total + 1 + tail.count
    }

    /// The bytes of piece `k`, written once at their known length.
    func encode(_ k: Int) -> [UInt8] {
        let end = Cut(section: sections.count, item: 0)
        let from = cuts[k]
        let to = k + 1 < cuts.count ? cuts[k + 1] : end
        let length = (k + 1 < starts.count ? starts[k + 1] : byteCount) - starts[k]
        return [UInt8](unsafeUninitializedCapacity: length) { buffer, written in
            var at = buffer.baseAddress!
            func put(_ bytes: [UInt8]) {
                bytes.withUnsafeBufferPointer { if let base = $0.baseAddress { at.update(from: base, count: $0.count) } }
                at += bytes.count
            }
            func put(byte: UInt8) {
                at.pointee = byte
                at += 1
            }
            if k == 0 {
                put(head)
                put(byte: UInt8(ascii: "["))
            }
            var cut = from
            while cut < to {
                let items = sections[cut.section].items
                if cut.item == 0 {
                    if cut.section > 0 { put(byte: UInt8(ascii: ",")) }
                    put(frames[cut.section].open)
                }
                if cut.item < items.count {
                    if cut.item > 0 { put(byte: UInt8(ascii: ",")) }
                    at += items[cut.item].writeJSON(to: at)
                    cut.item += 1
                }
                if cut.item >= items.count {
                    put(frames[cut.section].close)
                    cut = Cut(section: cut.section + 1, item: 0)
                }
            }
            if to == end {
                put(byte: UInt8(ascii: "]"))
                put(tail)
            }
            written = at - buffer.baseAddress!
            precondition(written == length, "piece \(k): \(written) bytes written of \(length)")
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
