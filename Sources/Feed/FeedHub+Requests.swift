import FeedProtocol
import Agenda
import CanonicalJSON

extension FeedHub {
    // MARK: - Input

    mutating func receive(_ bytes: ArraySlice<UInt8>, from id: ConnectionID) {
        // (No copy of the connection is held here: appending must not copy the buffer.)
        guard connections.contains(id), connections[live: id].ending == nil else { return } // input after a fatal error is ignored
        connections[live: id].input.append(contentsOf: bytes)
        processInput(id)
    }

    /// Handles the complete lines of a connection's input, as long as it accepts requests.
    /// Each byte is searched for a newline once (`scanned`), so a long line that arrives a
    /// byte at a time costs linear time, not quadratic.
    mutating func processInput(_ id: ConnectionID) {
        guard connections.contains(id) else { return }
        var handled = 0
        var searchFrom = connections[live: id].scanned
        var heldBack = false
        while connections.contains(id), connections[live: id].ending == nil {
            guard let newline = connections[live: id].input[searchFrom...].firstIndex(of: 10) else { break }
            guard acceptsRequests(connections[live: id]) else { heldBack = true; break }
            var line = connections[live: id].input[handled..<newline]
            handled = newline + 1
            searchFrom = handled
            if line.count > config.maxRequestLine {
                fatal(id, .lineTooLong, "request line over \(config.maxRequestLine) bytes")
                return
            }
            if line.last == 13 { line = line.dropLast() }
            if line.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            handle(line, from: id)
        }
        guard connections.contains(id), connections[live: id].ending == nil else { return }
        if handled > 0 { connections[live: id].input.removeFirst(handled) }
        let left = connections[live: id].input.count
        // Held back: the next search starts at the held line; otherwise what is left is
        // one partial line, searched already.
        connections[live: id].scanned = heldBack ? searchFrom - handled : left
        if !heldBack, left > config.maxRequestLine {
            fatal(id, .lineTooLong, "request line over \(config.maxRequestLine) bytes")
        }
    }

    /// Answers with an error, then closes the connection once the answer is out.
    mutating func fatal(_ id: ConnectionID, _ code: ErrorCode, _ message: String) {
        withConnection(id) { c in
            c.input = []
            c.scanned = 0
        }
        send(FeedMessage.error(code, message), to: id)
        withConnection(id) { $0.ending = .fatalError }
        effects.append(.stopReading(id))
    }

    // MARK: - Requests

    private mutating func handle(_ line: ArraySlice<UInt8>, from id: ConnectionID) {
        switch Request.decode(line) {
        case .failure(let error):
            send(FeedMessage.error(error.code, error.message), to: id)
        case .success(.ping):
            send(FeedMessage.pongLine, to: id)
        case .success(.refresh):
            send(FeedMessage.okLine, to: id)
            effects.append(.recompute(.refresh))
            // eventctl sends refresh after `source add`/`remove` too: the runner looks again.
            effects.append(.reloadSources)
        case .success(.sync(let names)):
            let token = nextToken
            nextToken += 1
            pendingSyncs[token] = id
            connections[live: id].syncsWaiting += 1
            effects.append(.syncSources(names, token: token))
        case .success(.status):
            send(statusMessage(), to: id)
        case .success(.snapshot(let viewJSON)):
            guard let view = parseView(viewJSON, for: id) else { return }
            let token = nextToken
            nextToken += 1
            pendingOneShots[token] = id
            connections[live: id].oneShotsWaiting += 1
            effects.append(.recompute(.oneShot(view, token: token)))
        case .success(.subscribe(let viewJSON, let resume, let version, let calendars)):
            guard var view = parseView(viewJSON, for: id) else { return }
            connections[live: id].followsCalendars = calendars
            // The decoder admits the versions there are.
            view.digestVersion = View.DigestVersion(rawValue: version) ?? .whole
            subscribe(id, to: view, resume: resume)
        }
    }

    private mutating func parseView(_ json: ViewFields?, for id: ConnectionID) -> View? {
        do {
            return try View.parse(json, defaultZone: defaultZone, knownCalendars: info.calendars)
        } catch {
            send(FeedMessage.error(RequestError(code: .invalidView, message: error.message, unknownCalendar: error.unknownCalendar)),
                 to: id)
            return nil
        }
    }

    // MARK: - Subscriptions

    private mutating func subscribe(_ id: ConnectionID, to view: View, resume: Request.Resume?) {
        // Distinct views cost a recompute each: bound them (views without subscribers
        // count until their grace period ends).
        if views[view] == nil, !makeRoomForAView() {
            send(FeedMessage.error(.invalidView, "too many distinct views (limit \(config.maxViews)); use a view others use"), to: id)
            return
        }
        if let old = connections[live: id].subscription.view {
            unsubscribe(id, from: old)
            // What was queued for the old subscription is of no use to the new one.
            connections[live: id].outbox.dropUnstarted()
        }
        var feed = views[view] ?? ViewFeed()
        feed.subscribers.insert(id)
        feed.idleSince = nil
        views[view] = feed
        guard feed.seq > 0 else {
            // First subscriber of this view: compute it; the snapshot follows. The view is
            // new in this run: a resume from another run is an epoch change, one from this
            // run has expired (the view was dropped).
            let reason = resume.map { $0.epoch == epoch ? ResyncReason.expired : .epoch }
            connections[live: id].subscription = .awaitingFirstSnapshot(view, resync: reason)
            effects.append(.recompute(.activate(view)))
            return
        }
        connections[live: id].subscription = .live(view)
        switch ResumeLog.resolve(resume: resume, head: FeedPosition(epoch: epoch, seq: feed.seq), log: feed.history.log) {
        case .upToDate:
            return
        case .replay(let diffs):
            for entry in diffs { sendSubscriptionData(entry.value.bytes, kind: .diff, to: id) }
        case .snapshot(let reason):
            if let reason { send(FeedMessage.resync(reason), to: id) }
            serveSnapshot(of: view, to: id)
        }
    }

    /// Queues `resync` (when given) and the view's current snapshot for `id` (live from
    /// then on), or, when the hub holds no snapshot, has it encoded and keeps `id` waiting
    /// for both. A snapshot is a fresh start, queued whatever waits before it (an answer,
    /// the `resync`): were it held to --client-buffer like diffs, a snapshot larger than
    /// the buffer would overflow after every `resync` and never go out.
    mutating func serveSnapshot(of view: View, to id: ConnectionID, resync: ResyncReason? = nil) {
        guard connections.contains(id), let feed = views[view] else { return }
        guard let message = feed.snapshotMessage else {
            connections[live: id].subscription = .awaitingFirstSnapshot(view, resync: resync)
            requestSnapshot(of: view)
            return
        }
        connections[live: id].subscription = .live(view)
        if let resync { enqueue(FeedMessage.resync(resync), kind: .answer, to: id) }
        enqueue(message, to: id)
        effects.append(.flush(id))
    }

    /// Asks the recomputer for the view's current snapshot message, unless it already was.
    mutating func requestSnapshot(of view: View) {
        guard views[view] != nil, !views[view]!.snapshotRequested else { return }
        views[view]!.snapshotRequested = true
        effects.append(.recompute(.encodeSnapshot(view)))
    }

    mutating func unsubscribe(_ id: ConnectionID, from view: View) {
        withConnection(id) { $0.subscription = .none }
        guard views[view] != nil else { return }
        views[view]!.subscribers.remove(id)
        if views[view]!.subscribers.isEmpty { views[view]!.idleSince = now.monotonic }
    }
}
