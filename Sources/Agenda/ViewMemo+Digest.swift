import ICalendar
import Support

/// The snapshot digest of a memo's build: SHA-256 over the sections array, fed again
/// only from the first changed date (the states before each date are kept), on the
/// calling thread or, for a large build, on another one while the calling thread sorts.
///
/// Issue 12: a whole build of the year's busiest 30 days (15,530 items) spent about
/// 2.5 ms sorting dates and 4.6 ms hashing 5.6 MB of sections, one after the other.
/// The digest of date `k` needs only the sections up to `k`, so the two overlap.
extension ViewMemo {
    /// Builds with at least this many items both to sort and to hash overlap the digest
    /// with sorting (below it, handing sections to another thread costs more than it saves).
    static let pipelinedDigestItems = 4096

    /// Where the digest starts: from the kept state before date `from`, or from the
    /// start when no state is kept.
    func digestJob(from: Int) -> DigestJob {
        if from > 0, digestMarks.count == sections.count + 1 {
            let mark = digestMarks[from]
            return DigestJob(from: from, count: sections.count, start: mark.sha, noneBefore: mark.noneBefore)
        }
        return DigestJob(from: 0, count: sections.count, start: AgendaSnapshot.digestStart, noneBefore: true)
    }

    /// Keeps the states `result` holds for the dates from `from` on.
    mutating func keep(_ result: DigestJob.Result, from: Int) {
        if digestMarks.count != sections.count + 1 {
            digestMarks = Array(repeating: (AgendaSnapshot.digestStart, true), count: sections.count + 1)
        }
        for (k, mark) in result.marks.enumerated() { digestMarks[from + k] = mark }
    }
}

/// Hashes the sections of dates `from..<count`, each got from `section` in date order.
struct DigestJob: Sendable {
    var from: Int
    var count: Int
    var start: SHA256
    var noneBefore: Bool

    /// The state before each date from `from` on, then after the last; and that last state.
    struct Result: Sendable {
        var marks: [(sha: SHA256, noneBefore: Bool)]
        var final: SHA256
    }

    func run(_ section: (Int) -> AgendaSection?) -> Result {
        let digest = BufferedDigest(continuing: start)
        var noneBefore = self.noneBefore
        var marks: [(sha: SHA256, noneBefore: Bool)] = []
        marks.reserveCapacity(count - from + 1)
        for offset in from..<count {
            marks.append((digest.state(), noneBefore))
            guard let s = section(offset) else { continue }
            AgendaSnapshot.hashSection(s, first: noneBefore, into: digest)
            noneBefore = false
        }
        let final = digest.state()
        marks.append((final, noneBefore))
        return Result(marks: marks, final: final)
    }
}
