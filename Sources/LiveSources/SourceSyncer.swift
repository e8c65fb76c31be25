import EventStore
import Foundation

/// Synchronises sources into an `EventStore` on the caller's thread: a URL's fetched
/// body (see `HTTPFetcher`, which may run on other threads), a vdir's or a file's
/// changed files. Each sync is a re-import of what the source holds now; a failure of
/// any kind leaves the calendar's events as they were and is recorded in the source's
/// state (one line, redacted).
public final class SourceSyncer {
    /// The open connection (nil while closed: see `init(path:)`).
    private(set) var openStore: EventStore?
    /// Where to open one when it is closed (nil: the connection given is the only one).
    private let path: String?
    /// The stamps of the files read last time, per source name, so that unchanged files
    /// are not read again.
    var stamps: [String: [String: FileStamp]] = [:]
    /// Largest file of a vdir or watched file that is read.
    let maxFileBytes: Int

    /// Syncs into `store` (a connection of its own: the daemon's feed never waits on it).
    public init(store: EventStore, maxFileBytes: Int = 64 << 20) {
        openStore = store
        path = nil
        gate = nil
        self.maxFileBytes = maxFileBytes
    }

    /// Syncs into the database at `path`, opening a connection when there is work and
    /// closing it with `closeStore()`. The daemon's runner holds no connection while it
    /// waits: a connection kept open across a SIGHUP that reopens a moved-back file
    /// would share SQLite's state of that file with the recompute thread's new one, and
    /// with it a stale WAL index.
    public init(path: String, gate: DatabaseGate? = nil, maxFileBytes: Int = 64 << 20) {
        self.path = path
        self.gate = gate
        self.maxFileBytes = maxFileBytes
    }

    /// Whether the daemon's main connection lets this one open the file (see `DatabaseGate`).
    private let gate: DatabaseGate?

    /// The database is being replaced: the work is tried again at the next attempt.
    public struct DatabaseBeingReplaced: Error, CustomStringConvertible {
        public var description: String { "the database file was replaced or moved; waiting for eventd to reopen it (SIGHUP)" }
    }

    /// The connection, opened when closed.
    var store: EventStore {
        get throws {
            // Without a path the given connection is never closed, so it is there.
            guard let path else { return openStore! }
            if let openStore { return openStore }
            if let gate, !gate.mayOpen(path: path) { throw DatabaseBeingReplaced() }
            let opened = try EventStore(path: path, options: .daemon)
            openStore = opened
            return opened
        }
    }

    /// Closes the connection (when it was opened from a path). A file replaced under it
    /// first loses our WAL names, and the connection its right to delete them.
    public func closeStore() {
        guard path != nil, let store = openStore else { return }
        if store.files.replacedOrRemoved() != nil { try? store.detachStaleFiles() }
        openStore = nil
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
            let input = ImportInput(path: source.urlInputPath, displayName: shown, bytes: bytes, calendar: source.calendar,
                                    liveSource: source.name)
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

    /// `2 added, 1 updated, 0 removed` over the results, or `unchanged`; then how many
    /// events were kept from other owners (`FileImportResult.keptFromOthers`), if any.
    static func describe(_ results: [FileImportResult]) -> String {
        let added = results.reduce(0) { $0 + $1.added }, updated = results.reduce(0) { $0 + $1.updated }
        let removed = results.reduce(0) { $0 + $1.removed }
        let kept = results.reduce(0) { $0 + $1.keptFromOthers }
        let counts = added + updated + removed == 0 ? "unchanged" : "\(added) added, \(updated) updated, \(removed) removed"
        guard kept > 0 else { return counts }
        return counts + "; warning: \(kept) event\(kept == 1 ? "" : "s") kept as imported by eventctl or another source (not taken over)"
    }
}

extension SourceSyncer {
    /// Synchronises `sources` one after another on this thread, as `eventctl source
    /// sync` does when no daemon runs: fetch or scan, then import. Nothing is scheduled;
    /// the reports say what happened (failures keep the events, as in the daemon).
    public func syncInProcess(_ sources: [LiveSource], limits: HTTPLimits = HTTPLimits(),
                              now: () -> Int64 = currentUnixTime) -> [SyncReport] {
        var fetcher: Result<HTTPFetcher, FetchFailure>?
        return sources.map { source in
            switch source.kind {
            case .vdir, .file:
                return syncFiles(source, now: now())
            case .url:
                if fetcher == nil {
                    do { fetcher = .success(try HTTPFetcher(limits: limits)) } catch {
                        fetcher = .failure(error as? FetchFailure ?? FetchFailure(.network, "\(error)"))
                    }
                }
                let result: Result<FetchResult, FetchFailure>
                switch fetcher! {
                case .success(let http):
                    do { result = .success(try http.fetch(source.location, etag: source.state.etag, lastModified: source.state.lastModified)) }
                    catch { result = .failure(error as? FetchFailure ?? FetchFailure(.network, "\(error)")) }
                case .failure(let failure):
                    result = .failure(failure)
                }
                return apply(result, to: source, now: now())
            }
        }
    }
}
