import Threads

extension SubscriptionMachine {
    /// One line of an open connection.
    mutating func received(_ bytes: [UInt8], helloSeen: Bool, now: MonotonicInstant) -> [Effect] {
        let message: FeedMessage
        do {
            message = try FeedMessage.decode(bytes)
        } catch {
            return [.close, .lost("a line from the daemon that is not a message: \(error)")] + reconnect(now)
        }
        var effects: [Effect] = [.line(bytes)]
        if !helloSeen {
            switch message {
            case .hello:
                phase = .open(helloSeen: true)
                return effects
            case .error:
                // `overloaded` comes instead of `hello`.
                break
            default:
                return effects + [.close, .lost("no hello: not eventd's feed")] + reconnect(now)
            }
        }
        switch message {
        case .snapshot(let snapshot):
            do {
                let fresh = try FeedClientState(snapshot: snapshot)
                state = fresh
                position = fresh.position
                failures = 0
                effects.append(.snapshot(fresh))
            } catch {
                return effects + [.close, .lost("a snapshot that cannot be read: \(error)")] + reconnect(now)
            }
        case .diff(let diff):
            effects += applied(diff)
        case .heartbeat(let heartbeat):
            effects.append(.heartbeat(heartbeat))
        case .resync(let reason):
            effects.append(.resync(reason: reason))
        case .error(let error):
            if error.code == .overloaded {
                return effects + [.close, .lost("daemon: \(error)")] + reconnect(now)
            }
            phase = .stopped
            effects += [.close, .failed(.refused(error))]
        case .calendars(let list):
            effects.append(.calendars(list))
        case .hello, .ok, .pong, .synced, .status, .other:
            break
        }
        return effects
    }

    /// A diff applied to the local copy. Without a copy (resumed from a position given
    /// by hand), a diff that follows on only moves the position.
    mutating func applied(_ diff: FeedMessage.Diff) -> [Effect] {
        guard var current = state else {
            if let p = position, p.epoch == diff.epoch, p.seq == diff.baseSeq { position = diff.position }
            return []
        }
        if (try? current.apply(diff: diff)) == true {
            state = current
            position = current.position
            failures = 0
            return [.diff(diff, current)]
        }
        // The local copy is wrong: a resume would only continue from it. Start afresh.
        state = nil
        position = nil
        return [.digestMismatch(seq: diff.seq), .send(.subscribe(view: configuration.view, resume: nil, protocolVersion: configuration.protocolVersion,
                                                                  calendars: configuration.calendars))]
    }
}

extension FeedMessage.Diff {
    /// The feed position this diff leads to.
    public var position: Request.Resume { Request.Resume(epoch: epoch, seq: seq) }
}
