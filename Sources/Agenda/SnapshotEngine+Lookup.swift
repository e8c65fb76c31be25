import EventStore
import ICalendar
import Synchronization
import Threads

/// A whole build's series: their remembered items are looked up on another thread while
/// this one adds what was found to the view's memo.
///
/// Done one after the other, the lookups and the adds left the second core waiting for
/// the digest; overlapped, the lookups (about 1.4 ms of a warm whole build of the bench's
/// 30-day view) leave this thread. The lookups read the cache only (an entry is
/// marked used through its atomic `lastUsed`); a series not found is expanded here once
/// the other thread is done, since expanding writes to the cache.
extension SnapshotEngine {
    /// Series per hand-over: small enough that the two threads overlap from the start.
    static let lookupChunk = 256

    /// Adds every series of `all` with its items to `memo` (of a whole build), expanding
    /// the series not remembered, its items not yet on their dates (`ViewMemo.placeAll`);
    /// throws when the items are more than `itemLimit`.
    func addAll(_ all: [SeriesFingerprint], to memo: inout ViewMemo, view: View, zone: Zone,
                store: EventStore) throws {
        // The places of the series to expand, not copies: a cold build of a year's view
        // misses all of its tens of thousands, which this list holds while they expand.
        let missing = all.count >= lookedUpElsewhereSeries ? try addRemembered(all, to: &memo, view: view) : Array(all.indices)
        for n in missing {
            let f = all[n], id = ViewMemo.SeriesID(calendar: f.calendar, uid: f.uid)
            let items = try expansion(of: f, id: id, view: view, window: memo.window, zone: zone, total: memo.total,
                                      store: store)
            memo.add(id, fingerprint: f.fingerprint, items: items, placed: false)
        }
    }

    /// Adds the series of `all` that the cache remembers, looked up on another thread in
    /// order, and returns the others' places in `all`. The cache is not written until
    /// that thread is done.
    private func addRemembered(_ all: [SeriesFingerprint], to memo: inout ViewMemo,
                               view: View) throws -> [Int] {
        typealias Found = [(id: ViewMemo.SeriesID, items: AgendaItem.Expansion)?]
        let channel = BatchChannel<Found>(capacity: 4)
        // The other thread takes the cache out of the box and lets it go before it ends,
        // so that this thread's copy is again the only one when it writes to it (else the
        // first write would copy the whole dictionary).
        let shared = Mutex<[Key: Entry]?>(cache)
        let zone = zoneNumber(view.timeZone), window = memo.window, generation = self.generation
        let chunk = Self.lookupChunk
        let lookups = WorkerThread(name: "eventd-lookup") { () -> Void in
            var cache = shared.withLock { $0.take() }
            defer { cache = nil }
            for start in stride(from: 0, to: all.count, by: chunk) {
                let found: Found = all[start..<min(start + chunk, all.count)].map { f in
                    let id = ViewMemo.SeriesID(calendar: f.calendar, uid: f.uid)
                    guard let entry = cache?[Key(fingerprint: f.fingerprint, zone: zone, window: window)],
                          entry.series == id.stringsHash else { return nil }
                    entry.lastUsed.store(generation, ordering: .relaxed)
                    return (id, entry.items)
                }
                guard channel.send(found) else { return }
            }
        }
        var missing: [Int] = []
        var overflow = false
        received: for start in stride(from: 0, to: all.count, by: chunk) {
            for (n, remembered) in channel.receive().enumerated() {
                let f = all[start + n]
                guard let (id, items) = remembered else {
                    missing.append(start + n)
                    continue
                }
                guard memo.total + items.count <= itemLimit else {
                    overflow = true
                    break received
                }
                lastReused += 1
                memo.add(id, fingerprint: f.fingerprint, items: items, placed: false)
            }
        }
        channel.close()
        lookups.join()
        if overflow { throw tooManyItems(view) }
        return missing
    }
}
