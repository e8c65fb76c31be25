/// A position in a feed: a state `seq` of the daemon run `epoch` (what `resume` names).
public typealias FeedPosition = Request.Resume

/// What a feed keeps per view for `resume`, the one rule for every holder of a log (the
/// daemon's hub, the gateway's Redis fan-out): at most `maxEntries` diffs and at most
/// `maxBytes` of them. Past either, the oldest go first; a resume from before them then
/// gets a fresh snapshot, which costs less than the diffs would.
public struct RetentionPolicy: Sendable, Equatable {
    public var maxEntries: Int
    public var maxBytes: Int

    /// A policy keeping `maxEntries` diffs of at most `maxBytes` together.
    public init(maxEntries: Int, maxBytes: Int) { (self.maxEntries, self.maxBytes) = (maxEntries, maxBytes) }
}

/// One view's retained diffs, oldest first: each leads to state `seq` from `seq - 1`, so
/// the log is a contiguous chain ending at the view's head. `Value` is what its holder
/// replays (the hub's diff line, the fan-out's stream entry). Removing from the front is
/// O(1); the storage is compacted when half of it is dead.
public struct ResumeLog<Value: Sendable>: Sendable {
    /// A retained diff: the state it leads to, its size and what replays it.
    public struct Entry: Sendable {
        public var seq: Int64
        public var size: Int
        public var value: Value
    }

    private var entries: [Entry] = []
    private var start = 0
    /// The bytes of every retained entry.
    public private(set) var byteCount = 0

    /// An empty log.
    public init() {}

    /// How many diffs are retained.
    public var count: Int { entries.count - start }

    /// The oldest retained diff.
    public var oldest: Entry? { start < entries.count ? entries[start] : nil }

    /// The newest retained diff.
    public var newest: Entry? { start < entries.count ? entries[entries.count - 1] : nil }

    /// Appends the diff to state `seq` (its holder appends in order, and empties the log
    /// when a diff does not follow on: `removeAll`), then drops the oldest until `policy`
    /// holds. Returns the bytes released (may exceed the appended bytes).
    @discardableResult
    public mutating func append(seq: Int64, size: Int, _ value: Value, policy: RetentionPolicy) -> Int {
        var released = 0
        entries.append(Entry(seq: seq, size: size, value: value))
        byteCount += size
        while count > 0, count > policy.maxEntries || byteCount > policy.maxBytes { released += removeOldest() }
        return released
    }

    /// Drops the oldest entry; returns its size (0 when empty).
    @discardableResult
    public mutating func removeOldest() -> Int {
        guard start < entries.count else { return 0 }
        let size = entries[start].size
        start += 1
        byteCount -= size
        if start == entries.count {
            entries.removeAll(keepingCapacity: false)
            start = 0
        } else if start >= 32, start * 2 >= entries.count {
            entries.removeFirst(start)
            start = 0
        }
        return size
    }

    /// Drops every entry; returns the bytes released.
    @discardableResult
    public mutating func removeAll() -> Int {
        let released = byteCount
        (entries, start, byteCount) = ([], 0, 0)
        return released
    }

    /// The diffs that lead from state `seq` to the newest, oldest first; nil when the log
    /// no longer reaches back to `seq`.
    public func entries(after seq: Int64) -> ArraySlice<Entry>? {
        guard let oldest, oldest.seq <= seq + 1 else { return nil }
        // Ascending by seq: the first entry past `seq` by bisection.
        var (low, high) = (start, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].seq <= seq { low = middle + 1 } else { high = middle }
        }
        return entries[low...]
    }
}

/// What a subscriber resuming from a position gets.
public enum ResumeDecision<Value: Sendable>: Sendable {
    /// It has the head already: nothing until the next change.
    case upToDate
    /// The retained diffs after its position, oldest first.
    case replay(ArraySlice<ResumeLog<Value>.Entry>)
    /// A fresh snapshot, after a `resync` with this reason (nil: no resume was asked for).
    case snapshot(ResyncReason?)
}

extension ResumeLog {
    /// The one resume rule (docs/protocol.md "Subscribe and resume"): no position, a
    /// snapshot; another epoch, `resync` `epoch` and a snapshot; the head, nothing; a
    /// position the log reaches back to, its diffs; any other, `resync` `expired` and a
    /// snapshot. `head` is the view's current state.
    public static func resolve(resume: FeedPosition?, head: FeedPosition, log: ResumeLog) -> ResumeDecision<Value> {
        guard let resume else { return .snapshot(nil) }
        guard resume.epoch == head.epoch else { return .snapshot(.epoch) }
        if resume.seq == head.seq { return .upToDate }
        guard resume.seq < head.seq, log.newest?.seq == head.seq, let diffs = log.entries(after: resume.seq),
              diffs.first?.seq == resume.seq + 1 else {
            return .snapshot(.expired)
        }
        return .replay(diffs)
    }
}
