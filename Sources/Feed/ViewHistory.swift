import Agenda
import CanonicalJSON
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

extension FeedHub {
    /// Drops the oldest diffs of all views until their bytes are within
    /// `config.historyBytes`. A subscriber resuming from a dropped position is sent
    /// `resync` and a snapshot, as for any position the history no longer holds.
    mutating func trimHistories() {
        while historyBytes > config.historyBytes {
            // The view holding the oldest diff; views are few (at most --max-views).
            var oldest: (view: View, stamp: UInt64)?
            for (view, feed) in views {
                if let stamp = feed.history.oldestStamp, stamp < oldest?.stamp ?? .max { oldest = (view, stamp) }
            }
            guard let view = oldest?.view else { return }
            historyBytes -= views[view]!.history.removeOldest()
        }
    }

    /// Forgets `view` and its history.
    mutating func dropView(_ view: View) {
        guard let feed = views.removeValue(forKey: view) else { return }
        historyBytes -= feed.history.byteCount
        viewItems -= feed.items
    }

    /// The `history` object of `status`: the bytes held in all and per view, largest first.
    func historyStatus() -> JSONValue {
        var held: [(bytes: Int, key: String, entry: JSONValue)] = []
        for (view, feed) in views where feed.history.count > 0 {
            let json = view.json
            let entry: JSONValue = .object(["view": json, "diffs": .int(Int64(feed.history.count)),
                                            "bytes": .int(Int64(feed.history.byteCount))])
            held.append((feed.history.byteCount, json.canonicalString(), entry))
        }
        held.sort { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.key < $1.key }
        return .object(["bytes": .int(Int64(historyBytes)), "limit_bytes": .int(Int64(config.historyBytes)),
                        "views": .array(held.map(\.entry))])
    }
}
