import EventStore

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
