import Threads
import FeedProtocol
import RedisClient

extension WatcherMachine {
    mutating func answered(_ request: WatcherRequest, _ replies: [RedisReply]) {
        if let problem = Self.problem(replies) {
            return fail(RedisError(.reply, operation: request == .read ? "XREAD" : replies.count > 1 ? "EXEC" : "\(request)",
                                   message: problem).description)
        }
        switch request {
        case .want:
            wantedAt = now.monotonic
            // ZADD counts the members it added: 1 when the view was not wanted (a new
            // view, an emptied Redis, an entry that expired): eventd is told at once.
            if replies.first == .integer(1) { return send(.announce) }
        case .announce:
            break
        case .start:
            guard let (line, entries) = Self.transaction(replies),
                  let found = Self.snapshot(line, at: entries.last?.id ?? .zero) else {
                // Not published yet: eventd heard the announcement and is computing it.
                if now.monotonic >= startDeadline {
                    return fail("eventd published no snapshot of \(view) in \(Int(settings.snapshotWait.seconds)) s")
                }
                nextStartTry = now.monotonic + settings.snapshotPoll
                return
            }
            fanout.start(entries: entries, at: entries.last?.id ?? .zero)
            snapshot = found
            streaming = true
            failures = 0
            outage = false
            effects.append(.reachable(true, "reading \(view)"))
            serveWaiting()
        case .snapshot:
            if let (line, entries) = Self.transaction(replies), let found = Self.snapshot(line, at: entries.first?.id ?? .zero) {
                snapshot = found
            }
            serveWaiting()
        case .read:
            let (lines, resync) = fanout.received(StreamEntry.readEntries(replies.first ?? .null))
            for (client, out) in lines.sorted(by: { $0.key < $1.key }) { effects.append(.deliver(client: client, lines: out)) }
            lost += resync
        }
        next(reading: false)
    }

    /// The connection failed or Redis answered with an error: every client is told,
    /// and the next attempt waits 0.5 s, doubled after each failure, 30 s at most.
    mutating func fail(_ reason: String) {
        let delay = Backoff(first: settings.firstBackoff, max: settings.maxBackoff).delay(after: failures)
        failures += 1
        link = .down(retryAt: now.monotonic + delay)
        streaming = false
        inFlight = nil
        wantedAt = nil
        let told = fanout.memberIDs.sorted() + waiting.map(\.client) + lost
        for client in fanout.memberIDs { fanout.leave(client) }
        waiting.removeAll()
        lost.removeAll()
        for client in told { effects.append(.close(client: client)) }
        if !outage {
            outage = true
            effects.append(.reachable(false, reason))
        }
    }

    /// The first error among a pipeline's replies, or a transaction's results.
    static func problem(_ replies: [RedisReply]) -> String? {
        if let error = replies.lazy.compactMap(\.errorMessage).first { return error }
        if replies.count > 1, let results = replies.last?.elements { return results.lazy.compactMap(\.errorMessage).first }
        return nil
    }

    /// The snapshot key's line and the entries of a `MULTI`/`GET`/`X…RANGE`/`EXEC` reply.
    static func transaction(_ replies: [RedisReply]) -> ([UInt8], [StreamEntry])? {
        guard let results = replies.last?.elements, results.count == 2, case .string(let line) = results[0] else { return nil }
        return (line, StreamEntry.entries(results[1]))
    }

    /// A snapshot line read from the snapshot key, standing at stream entry `at`.
    static func snapshot(_ line: [UInt8], at: StreamID) -> ViewFanout.Snapshot? {
        guard case .snapshot(let s)? = try? FeedMessage.decode(line) else { return nil }
        return ViewFanout.Snapshot(line: line, epoch: s.epoch, seq: s.seq, at: at)
    }
}
