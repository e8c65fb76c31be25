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
    /// alone, each into its own digest (on as many threads as the cores when they hold
    /// at least `hashedElsewhere` items: sections are independent), then the view's
    /// digest from every date's kept section digest, 64 bytes a section.
    mutating func finishBySection(_ view: View, dates: [Int], hashedElsewhere: Int) -> AgendaSnapshot {
        var made: [(offset: Int, section: AgendaSection)] = []
        for offset in dates {
            makeSection(offset, view)
            sectionDigests[offset] = nil
            if let section = sections[offset] { made.append((offset, section)) }
        }
        if made.count > 1, made.reduce(0, { $0 + $1.section.items.count }) >= hashedElsewhere {
            let parts = made.map(\.section)
            let digests = Mutex([[UInt8]](repeating: [], count: parts.count))
            DispatchQueue.concurrentPerform(iterations: parts.count) { k in
                let digest = AgendaSnapshot.sectionDigest(parts[k])
                digests.withLock { $0[k] = digest }
            }
            let all = digests.withLock { $0 }
            for (k, m) in made.enumerated() { sectionDigests[m.offset] = all[k] }
        } else {
            for m in made { sectionDigests[m.offset] = AgendaSnapshot.sectionDigest(m.section) }
        }
        return self.made(view, digest: AgendaSnapshot.viewDigest(sectionDigests.lazy.compactMap { $0 }))
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
