import EventStore

extension ViewMemo {
    /// What changed in a view's series since its memo's build.
    struct Delta {
        /// Series new or with another fingerprint, as the store has them now.
        var changed: [SeriesFingerprint] = []
        /// Series of the memo that are not in the window any more.
        var vanished: [SeriesID] = []
        /// How many series the window holds now, when known (the whole comparison).
        var series = 0
    }

    /// The delta from comparing every series of the window (`fingerprints`, the store's
    /// whole answer) with the memo's: the fallback when the change log cannot tell.
    /// Nil when more changed than an incremental build is worth.
    func delta(fingerprints: [SeriesFingerprint]) -> Delta? {
        let limit = SnapshotEngine.incrementalLimit(series: fingerprints.count)
        var delta = Delta(series: fingerprints.count)
        var present = 0
        for f in fingerprints {
            if let old = series[SeriesID(calendar: f.calendar, uid: f.uid)] {
                present += 1
                if old.fingerprint == f.fingerprint { continue }
            }
            delta.changed.append(f)
            if delta.changed.count > limit { return nil }
        }
        if present < series.count {
            let current = Set(fingerprints.map { SeriesID(calendar: $0.calendar, uid: $0.uid) })
            delta.vanished = series.keys.filter { !current.contains($0) }
        }
        return delta
    }

    /// The delta of the series `names` the change log says changed, with their current
    /// `fingerprints` (absent: not in the window now); a series whose fingerprint came
    /// back to the memo's is not changed.
    func delta(names: Set<SeriesName>, fingerprints: [SeriesFingerprint]) -> Delta {
        var delta = Delta()
        var found = Set<SeriesID>()
        for f in fingerprints {
            let id = SeriesID(calendar: f.calendar, uid: f.uid)
            found.insert(id)
            if series[id]?.fingerprint != f.fingerprint { delta.changed.append(f) }
        }
        for name in names {
            let id = SeriesID(calendar: name.calendar, uid: name.uid)
            if !found.contains(id), series[id] != nil { delta.vanished.append(id) }
        }
        return delta
    }
}
