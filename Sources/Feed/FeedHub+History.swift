import Agenda
import CanonicalJSON

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
