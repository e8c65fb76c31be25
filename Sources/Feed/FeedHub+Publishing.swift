import Agenda
import FeedProtocol
import LiveSources

extension FeedHub {
    mutating func recomputed(_ output: RecomputeOutput) {
        switch output {
        case .info(let newInfo):
            let (seen, duration) = (info.lastRecompute, info.lastDurationMS)
            let calendarsBefore = calendarList
            info = newInfo
            if ready, calendarList != calendarsBefore { broadcastCalendars() }
            // A publication may already have told a later recompute (see `publish`).
            if let seen, newInfo.lastRecompute.map({ seen > $0 }) ?? true {
                (info.lastRecompute, info.lastDurationMS) = (seen, duration)
            }
            if !ready {
                ready = true
                effects.append(.notify("READY=1\nSTATUS=serving \(config.socketPath)"))
                // The source runner starts its database work now, so that it does not
                // contend with the recompute thread's first open (and migration).
                effects.append(.reloadSources)
            }
        case .oneShot(let token, let message):
            guard let id = pendingOneShots.removeValue(forKey: token), connections.contains(id) else { return }
            connections[live: id].oneShotsWaiting -= 1
            send(message, to: id)
            // It may have been held back by the one-shot limit.
            processInput(id)
        case .published(let view, let publication):
            publish(view, publication)
        case .snapshot(let view, let seq, let message):
            snapshotEncoded(view, seq: seq, message: message)
        case .failed(let view, let message):
            failView(view, message)
        }
    }

    /// The calendars and colours `status` gives, as the `calendars` message carries them.
    var calendarList: FeedMessage.CalendarList {
        FeedMessage.CalendarList(names: info.calendars.sorted(), colors: info.colors.filter { info.calendars.contains($0.key) })
    }

    /// Tells every live subscriber that asked (`"calendars": true`) the calendars and colours (a colour set with
    /// `eventctl calendars --color`, a calendar added or removed), so that a running
    /// `watch` or dashboard recolours without polling. Encoded once; queued like a
    /// heartbeat: a subscriber too far behind for it is owed a resync, after which it
    /// asks `status` anyway.
    private mutating func broadcastCalendars() {
        let line = FeedMessage.calendars(calendarList).line
        for feed in views.values {
            for id in feed.subscribers {
                // One awaiting its first snapshot asks `status` with it, if it cares.
                guard let c = connections[id], c.followsCalendars, case .live = c.subscription else { continue }
                sendSubscriptionData(line, kind: .heartbeat, to: id)
            }
        }
    }

    /// A view whose first snapshot could not be built: its subscribers get
    /// `invalid_view` (their connections stay open) and the view is dropped.
    private mutating func failView(_ view: View, _ message: String) {
        guard views[view]?.seq == 0 else { return }
        refuse(view, message)
    }

    /// A view's new state: a snapshot for those waiting for one, the diff for the others.
    /// A subscriber whose queue still holds an unstarted snapshot of an older state does
    /// not keep it (that would pin a superseded snapshot for as long as it does not
    /// read): it is owed the current one instead.
    private mutating func publish(_ view: View, _ p: ViewPublication) {
        if let at = p.recomputedAt, info.lastRecompute.map({ at > $0 }) ?? true {
            info.lastRecompute = at
            info.lastDurationMS = p.durationMS
        }
        guard var feed = views[view] else { return }
        let isFirst = feed.seq == 0
        feed.seq = p.seq
        if let items = p.items {
            viewItems += items - feed.items
            feed.items = items
        }
        // A diff makes the held snapshot stale: dropped, encoded again when needed.
        feed.snapshotMessage = p.snapshotMessage
        if p.snapshotMessage != nil { feed.snapshotRequested = false }
        if let bytes = p.snapshotBytes { feed.snapshotBytes = bytes }
        if let diff = p.diffMessage {
            historyStamp += 1
            let released = feed.history.append(seq: p.seq, bytes: diff, stamp: historyStamp,
                                               maxCount: config.history, maxBytes: feed.snapshotBytes ?? .max)
            historyBytes += diff.count - released
        }
        views[view] = feed
        if p.diffMessage != nil { trimHistories() }
        if isFirst, !enforceItemBudget(admitting: view) { return }
        let hasSnapshot = p.snapshotMessage != nil, diff = p.diffMessage
        let limit = config.clientBuffer, now = now.monotonic
        // In the order they connected, which is the order their state lies in memory
        // (`ConnectionTable` keeps values dense, and their queues were allocated in that
        // order): the walk, the writes and the bookkeeping after them then go through
        // memory mostly forwards instead of in the set's hash order.
        for id in feed.subscribers.sorted() {
            let action = withConnection(id) { c -> PublishAction in
                switch c.subscription {
                case .awaitingFirstSnapshot(_, let resync):
                    // A diff alone serves nobody waiting: the snapshot they wait for follows.
                    return hasSnapshot ? .serveSnapshot(resync: resync) : .nothing
                case .live:
                    if c.outbox.hasUnstartedSnapshot {
                        c.outbox.dropUnstarted()
                        // Served as soon as the socket has room (the loop watches for it).
                        c.subscription = .owed(view, reason: nil)
                        return .nothing
                    }
                    if let diff { return .sentDiff(c.queueSubscriptionData(diff, kind: .diff, limit: limit, now: now)) }
                    if hasSnapshot {
                        // A first snapshot for a view it already had (recreated): start over.
                        c.outbox.dropUnstarted()
                        return .serveSnapshot(resync: nil)
                    }
                    return .nothing
                case .owed, .none:
                    return .nothing // owed: gets the current snapshot when it reads again
                }
            }
            switch action {
            case .serveSnapshot(let resync): serveSnapshot(of: view, to: id, resync: resync)
            case .sentDiff(let outcome): queued(outcome, to: id)
            case .nothing, nil: break
            }
        }
    }

    /// What a publication means for one subscriber (decided in place, then done).
    private enum PublishAction {
        case nothing
        case serveSnapshot(resync: ResyncReason?)
        /// The diff went into its queue (or overflowed it) in place.
        case sentDiff(HubConnection.QueueOutcome)
    }

    /// The snapshot message a subscriber was waiting for: held while it is current, and
    /// queued for everyone of the view still waiting.
    private mutating func snapshotEncoded(_ view: View, seq: Int64, message: SnapshotMessage) {
        guard views[view] != nil else { return }
        views[view]!.snapshotRequested = false
        let waiting = views[view]!.subscribers.compactMap { id -> (ConnectionID, ResyncReason?)? in
            guard case .awaitingFirstSnapshot(_, let resync)? = connections[id]?.subscription else { return nil }
            return (id, resync)
        }
        guard views[view]!.seq == seq else {
            // Of another state than the hub's (cannot happen: the recomputer's outputs
            // arrive in order): asked for again while anyone waits.
            if !waiting.isEmpty { requestSnapshot(of: view) }
            return
        }
        views[view]!.snapshotMessage = message
        for (id, resync) in waiting { serveSnapshot(of: view, to: id, resync: resync) }
    }
}

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
