/// A view's retained diffs, for `resume`: bounded by a count (`--history`) and by bytes.
///
/// The byte bound is the size of the view's current snapshot: past it, replaying the
/// diffs costs a client more than a fresh snapshot, so the client gets the snapshot. The
/// daemon-wide bound (`--history-bytes`) is the hub's: it takes the oldest entry of
/// whichever view holds the oldest (`FeedHub.trimHistories`), using each entry's stamp.
struct ViewHistory {
    /// One diff line and the state it leads to.
    struct Entry {
        var seq: Int64
        var bytes: [UInt8]
        /// The hub-wide order of appends: the lowest stamp is the oldest diff of all views.
        var stamp: UInt64
    }

    /// Oldest first; `start` is the first live entry (removing from the front is then
    /// O(1); the array is compacted when half of it is dead).
    private var entries: [Entry] = []
    private var start = 0
    /// The bytes of every live entry.
    private(set) var byteCount = 0

    /// How many diffs are retained.
    var count: Int { entries.count - start }

    /// The oldest entry's stamp, or nil when empty.
    var oldestStamp: UInt64? { start < entries.count ? entries[start].stamp : nil }

    /// Appends the diff to state `seq`, then drops the oldest entries until at most
    /// `maxCount` remain and they hold at most `maxBytes`. Returns the bytes released
    /// (may exceed the appended bytes).
    mutating func append(seq: Int64, bytes: [UInt8], stamp: UInt64, maxCount: Int, maxBytes: Int) -> Int {
        entries.append(Entry(seq: seq, bytes: bytes, stamp: stamp))
        byteCount += bytes.count
        var released = 0
        while count > 0, count > maxCount || byteCount > maxBytes { released += removeOldest() }
        return released
    }

    /// Drops the oldest entry; returns its size in bytes (0 when empty).
    @discardableResult
    mutating func removeOldest() -> Int {
        guard start < entries.count else { return 0 }
        let size = entries[start].bytes.count
        entries[start].bytes = []
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

    /// The diffs that lead from state `seq` to the newest, oldest first, or nil when the
    /// history no longer reaches back to `seq` (a resume from it needs a snapshot).
    func diffs(after seq: Int64) -> ArraySlice<Entry>? {
        guard start < entries.count, entries[start].seq <= seq + 1 else { return nil }
        var first = start
        while first < entries.count, entries[first].seq <= seq { first += 1 }
        return entries[first...]
    }
}
