import FeedProtocol

/// A view's retained diffs, for `resume`: FeedProtocol's `ResumeLog` under the view's
/// `RetentionPolicy`, a count (`--history`) and bytes.
///
/// The byte bound is the size of the view's current snapshot: past it, replaying the
/// diffs costs a client more than a fresh snapshot, so the client gets the snapshot. The
/// daemon-wide bound (`--history-bytes`) is the hub's: it takes the oldest entry of
/// whichever view holds the oldest (`FeedHub.trimHistories`), using each entry's stamp.
struct ViewHistory {
    /// One diff line and when it was appended.
    struct Diff: Sendable {
        var bytes: [UInt8]
        /// The hub-wide order of appends: the lowest stamp is the oldest diff of all views.
        var stamp: UInt64
    }

    /// The diffs, oldest first.
    private(set) var log = ResumeLog<Diff>()

    /// How many diffs are retained.
    var count: Int { log.count }
    /// The bytes of every retained diff.
    var byteCount: Int { log.byteCount }

    /// The oldest entry's stamp, or nil when empty.
    var oldestStamp: UInt64? { log.oldest?.value.stamp }

    /// Appends the diff to state `seq`, then drops the oldest entries until at most
    /// `maxCount` remain and they hold at most `maxBytes`. Returns the bytes released
    /// (may exceed the appended bytes).
    mutating func append(seq: Int64, bytes: [UInt8], stamp: UInt64, maxCount: Int, maxBytes: Int) -> Int {
        log.append(seq: seq, size: bytes.count, Diff(bytes: bytes, stamp: stamp),
                   policy: RetentionPolicy(maxEntries: maxCount, maxBytes: maxBytes))
    }

    /// Drops the oldest entry; returns its size in bytes (0 when empty).
    @discardableResult
    mutating func removeOldest() -> Int { log.removeOldest() }

    /// The diffs that lead from state `seq` to the newest, oldest first, or nil when the
    /// history no longer reaches back to `seq` (a resume from it needs a snapshot).
    func diffs(after seq: Int64) -> ArraySlice<ResumeLog<Diff>.Entry>? { log.entries(after: seq) }
}
