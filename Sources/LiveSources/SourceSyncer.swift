import EventStore
import Foundation

/// Synchronises sources into an `EventStore` on the caller's thread: a URL's fetched
/// body (see `HTTPFetcher`, which may run on other threads), a vdir's or a file's
/// changed files. Each sync is a re-import of what the source holds now; a failure of
/// any kind leaves the calendar's events as they were and is recorded in the source's
/// state (one line, redacted).
public final class SourceSyncer {
    let store: EventStore
    /// The stamps of the files read last time, per source name, so that unchanged files
    /// are not read again.
    var stamps: [String: [String: FileStamp]] = [:]
    /// Largest file of a vdir or watched file that is read.
    let maxFileBytes: Int

    /// Syncs into `store` (a connection of its own: the daemon's feed never waits on it).
    public init(store: EventStore, maxFileBytes: Int = 64 << 20) {
        self.store = store
        self.maxFileBytes = maxFileBytes
    }

    /// Forgets what is known of a removed source's files.
    public func forget(_ name: String) { stamps[name] = nil }

    // MARK: - URL sources

    /// Applies the result of fetching a URL source at `now` (Unix seconds).
    public func apply(_ fetched: Result<FetchResult, FetchFailure>, to source: LiveSource, now: Int64) -> SyncReport {
        var source = source
        source.state.lastAttempt = now
        let shown = source.redactedLocation
        switch fetched {
        case .failure(let failure):
            return failed(source, failure)
        case .success(.notModified(let etag, let lastModified)):
            source.state.etag = etag
            source.state.lastModified = lastModified
            return succeeded(source, changed: false, summary: "not modified", ttl: source.state.ttlSeconds)
        case .success(.body(let bytes, let etag, let lastModified)):
            let hash = ContentHash.of(bytes: bytes)
            if hash == source.state.bodyHash {
                source.state.etag = etag
                source.state.lastModified = lastModified
                return succeeded(source, changed: false, summary: "unchanged", ttl: source.state.ttlSeconds)
            }
            do {
                try CalendarBody.check(bytes, shown: shown)
            } catch {
                return failed(source, error)
            }
            let input = ImportInput(path: source.urlInputPath, displayName: shown, bytes: bytes, calendar: source.calendar)
            do {
                let result = try store.importCalendars([input], now: now)[0]
                source.state.etag = etag
                source.state.lastModified = lastModified
                source.state.bodyHash = hash
                let ttl = CalendarBody.refreshInterval(bytes).map { min($0, LiveSourceDefaults.maximumTTL) }
                source.state.ttlSeconds = ttl
                return succeeded(source, changed: result.changedAnything, summary: Self.describe([result]), ttl: ttl)
            } catch {
                return failed(source, FetchFailure(.parse, FetchFailure.oneLine("\(error)")))
            }
        }
    }

    // MARK: - Outcomes

    func succeeded(_ source: LiveSource, changed: Bool, summary: String, ttl: Int64?) -> SyncReport {
        var source = source
        // Counted again only when this attempt wrote (a poll answered 304 reads nothing).
        if changed || source.state.lastSuccess == nil || source.state.events == 0 {
            source.state.events = (try? store.eventCount(calendar: source.calendar)) ?? source.state.events
        }
        source.state.lastSuccess = source.state.lastAttempt
        source.state.lastError = nil
        source.state.failures = 0
        save(&source)
        return SyncReport(name: source.name, failure: nil, changedEvents: changed, summary: summary, ttl: ttl, source: source)
    }

    func failed(_ source: LiveSource, _ failure: FetchFailure) -> SyncReport {
        var source = source
        source.state.lastError = FetchFailure.oneLine(failure.message)
        source.state.failures += 1
        save(&source)
        return SyncReport(name: source.name, failure: failure, changedEvents: false, summary: failure.message,
                          ttl: source.state.ttlSeconds, source: source)
    }

    /// Stores the state; a failure to store it is reported with the attempt's outcome
    /// by the caller's log through `lastError` next time (the events are unaffected).
    private func save(_ source: inout LiveSource) {
        do { try store.saveLiveSourceState(source) } catch {
            source.state.lastError = FetchFailure.oneLine("cannot record the source's state: \(error)")
        }
    }

    /// `2 added, 1 updated, 0 removed` over the results, or `unchanged`.
    static func describe(_ results: [FileImportResult]) -> String {
        let added = results.reduce(0) { $0 + $1.added }, updated = results.reduce(0) { $0 + $1.updated }
        let removed = results.reduce(0) { $0 + $1.removed }
        if added + updated + removed == 0 { return "unchanged" }
        return "\(added) added, \(updated) updated, \(removed) removed"
    }
}
