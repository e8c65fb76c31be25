import Dispatch
import Synchronization
import ICalendar
import Digests

/// The snapshot digest of a memo's build: SHA-256 over the sections array, fed again
/// only from the first changed date (the states before each date are kept), and for a
/// large build hashed on another thread while the building thread sorts dates and copies
/// their bytes (`ViewMemo.finish`).
///
/// The digest of date `k` needs only the sections up to `k`, so the hashing of one date
/// overlaps the sorting (in place) and copying of the next; that beat copying and
/// hashing on the other thread while this one sorted. The hash is most of the work (5.6
/// MB for the bench's 30-day view). A change on the window's first date sorts little
/// but hashes the whole array again: there the copying alone overlaps the hashing.
extension ViewMemo {
    /// Digests of at least this many items are hashed on another thread (about 700 KB;
    /// below it, starting the other thread costs more than the work it takes off this one).
    static let hashedElsewhereItems = 2048

    /// Where the digest starts: from the kept state before date `from`, or from the
    /// start when no state is kept.
    func digestJob(from: Int) -> DigestJob {
        if from > 0, digestMarks.count == sections.count + 1 {
            let mark = digestMarks[from]
            return DigestJob(from: from, count: sections.count, start: mark.sha, noneBefore: mark.noneBefore)
        }
        return DigestJob(from: 0, count: sections.count, start: AgendaSnapshot.digestStart, noneBefore: true)
    }

    /// Protocol 2's finish: makes the sections at `dates` (sorted) and hashes those
    /// alone, each into its own digest, then the view's digest from every date's kept
    /// section digest, 64 bytes a section. With at least `hashedElsewhere` items, each
    /// section is hashed on Dispatch's queue as soon as it is sorted, while this thread
    /// sorts the next (sections are independent, so both cores hash).
    mutating func finishBySection(_ view: View, dates: [Int], hashedElsewhere: Int) -> AgendaSnapshot {
        let elsewhere = dates.count > 1 && dates.reduce(0, { $0 + perDay[$1].count }) >= hashedElsewhere
        let group = DispatchGroup()
        let hashed = HashedSections()
        hashedSections = 0
        for offset in dates {
            makeSection(offset, view)
            sectionDigests[offset] = nil
            guard let section = sections[offset] else { continue }
            hashedSections += 1
            if elsewhere {
                DispatchQueue.global().async(group: group) { hashed.add(offset, AgendaSnapshot.sectionDigest(section)) }
            } else {
                sectionDigests[offset] = AgendaSnapshot.sectionDigest(section)
            }
        }
        if elsewhere {
            group.wait()
            for (offset, digest) in hashed.all() { sectionDigests[offset] = digest }
        }
        return made(view, digest: AgendaSnapshot.viewDigest(sectionDigests.lazy.compactMap { $0 }))
    }

    /// Keeps the states `result` holds for the dates from `from` on.
    mutating func keep(_ result: DigestJob.Result, from: Int) {
        if digestMarks.count != sections.count + 1 {
            digestMarks = Array(repeating: (AgendaSnapshot.digestStart, true), count: sections.count + 1)
        }
        for (k, mark) in result.marks.enumerated() { digestMarks[from + k] = mark }
    }
}

/// Hashes the sections of dates `from..<count`, each got from `section` in date order;
/// with `elsewhere`, on another thread while this one copies their bytes.
struct DigestJob: Sendable {
    var from: Int
    var count: Int
    var start: SHA256
    var noneBefore: Bool
    var elsewhere = false

    /// The state before each date from `from` on, then after the last; and that last state.
    struct Result: Sendable {
        var marks: [BufferedDigest.Mark]
        var final: SHA256
    }

    func run(_ section: (Int) -> AgendaSection?) -> Result {
        var digest = elsewhere ? BufferedDigest(continuing: start, hashingElsewhereIn: 4) : BufferedDigest(continuing: start)
        var noneBefore = self.noneBefore
        for offset in from..<count {
            digest.mark(noneBefore: noneBefore)
            guard let s = section(offset) else { continue }
            AgendaSnapshot.hashSection(s, first: noneBefore, into: &digest)
            noneBefore = false
        }
        digest.mark(noneBefore: noneBefore)
        let (marks, final) = digest.finish()
        return Result(marks: marks, final: final)
    }
}

/// The section digests hashed on Dispatch's queue, by date offset.
private final class HashedSections: Sendable {
    private let digests = Mutex<[(Int, [UInt8])]>([])

    func add(_ offset: Int, _ digest: [UInt8]) { digests.withLock { $0.append((offset, digest)) } }

    func all() -> [(Int, [UInt8])] { digests.withLock { $0 } }
}
