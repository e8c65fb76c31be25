import FeedProtocol
import LiveSources

extension FeedHub {
    /// What the live-source runner reports: a refresh (events changed), every source's
    /// status (kept for `status`), or the answer to a `sync` request.
    mutating func sourcesReported(_ report: SourceRunner.Report) {
        switch report {
        case .refresh:
            effects.append(.recompute(.refresh))
        case .statuses(let statuses):
            sources = statuses
        case .synced(let token, let reports):
            guard let id = pendingSyncs.removeValue(forKey: token), connections.contains(id) else { return }
            connections[live: id].syncsWaiting -= 1
            send(FeedMessage.synced(reports.map { SyncOutcome($0.json) }), to: id)
            // It may have been held back by the limit on waiting requests.
            processInput(id)
        }
    }
}
