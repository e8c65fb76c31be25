import Agenda
import ICalendar
import Support

extension FeedHub {
    /// Stalls, heartbeats, idle views, watchdog pings, clock steps, the shutdown drain.
    mutating func tick() {
        let t = now.monotonic
        if let deadline = shutdownDeadline {
            if t >= deadline || !connections.values.contains(where: { !$0.outbox.isEmpty }) { effects.append(.exit) }
            return
        }
        if jumps.observe(now) {
            // A laptop resumed, NTP stepped, someone set the clock: sliding views may have
            // a new date now, not at the next timer tick.
            effects.append(.log(.notice, "the wall clock stepped (now \(Self.utcStamp(now.wall))): checking every view's date"))
            effects.append(.recompute(.clockChanged))
        }
        // Only the connections whose deadline has come (a heap, not a scan of all):
        // stalled ones are closed, idle subscribers get a heartbeat, and each is
        // scheduled again for what it waits for next.
        for id in deadlines.popDue(t) {
            guard let c = connections[id] else { continue }
            if c.hasUnreadData {
                let stallAt = c.lastDrain + config.stallTimeout
                if t >= stallAt {
                    remove(id, reason: "stalled for \(Int(config.stallTimeout)) s with unread data")
                } else {
                    deadlines.schedule(id, at: stallAt)
                }
            } else if case .live(let view) = c.subscription {
                let heartbeatAt = c.lastSent + config.heartbeat
                if t >= heartbeatAt, let feed = views[view] {
                    // (Queues it, which schedules the next look.)
                    sendSubscriptionData(Messages.heartbeat(epoch: epoch, seq: feed.seq, time: Self.utcStamp(now.wall)),
                                         kind: .heartbeat, to: id)
                } else {
                    deadlines.schedule(id, at: heartbeatAt)
                }
            }
            // Neither (no subscription, nothing queued): nothing to watch until it is
            // sent something, which schedules it again.
        }
        for (view, feed) in views where feed.subscribers.isEmpty {
            if let idle = feed.idleSince, t - idle > config.viewGrace {
                views[view] = nil
                effects.append(.recompute(.deactivate(view)))
            }
        }
        // Due at three quarters of the interval: the loop ticks every half interval, so a
        // ping waiting for the full interval could slip to one and a half of it (the tick
        // before came a hair early), which with a loaded machine's delay nears systemd's
        // deadline. This pings every interval, on the tick.
        if let interval = watchdogInterval, t - lastWatchdog >= interval * 0.75 {
            lastWatchdog = t
            effects.append(.notify("WATCHDOG=1"))
        }
        if ready, t - lastStatusNotify >= 10 {
            lastStatusNotify = t
            let subscribers = views.values.reduce(0) { $0 + $1.subscribers.count }
            effects.append(.notify("STATUS=\(views.count) view(s), \(subscribers) subscriber(s), \(connections.count) connection(s)"))
        }
    }

    /// The system's zone changed: views that name no zone get the new one from now on,
    /// and every view's date is checked at once.
    mutating func systemZoneChanged(_ zone: String) {
        guard followsSystemZone, zone != defaultZone else { return }
        effects.append(.log(.notice, "the system time zone changed from \(defaultZone) to \(zone)"))
        defaultZone = zone
        effects.append(.recompute(.clockChanged))
    }

    /// Stops accepting; pending messages get at most 2 s to go out.
    mutating func beginShutdown() {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = now.monotonic + 2
        effects.append(.notify("STOPPING=1"))
        effects.append(.stopListening)
        effects.append(.log(.notice, "shutting down: \(connections.count) connection(s), flushing pending messages"))
        tick()
    }

    // MARK: - Status

    func statusMessage() -> [UInt8] {
        let subscribers = views.values.reduce(0) { $0 + $1.subscribers.count }
        var fields: [String: JSONValue] = [
            "version": .string("0.1.0"),
            "epoch": .string(epoch),
            "uptime_seconds": .int(Int64(now.monotonic - started.monotonic)),
            "views": .int(Int64(views.count)),
            "subscribers": .int(Int64(subscribers)),
            "connections": .int(Int64(connections.count)),
            "database": .string(config.databasePath),
            "socket": .string(config.socketPath),
            "events": .int(Int64(info.eventCount)),
            "calendars": .int(Int64(info.calendars.count)),
            "healthy": .bool(info.healthy),
            "last_recompute": info.lastRecompute > 0
                ? .object(["time": .string(Self.utcStamp(info.lastRecompute)),
                           "duration_ms": .double((info.lastDurationMS * 10).rounded() / 10)])
                : .null,
        ]
        if let problem = info.problem { fields["problem"] = .string(problem) }
        fields["sources"] = .array(sources.map(\.json))
        return Messages.status(fields)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of a UTC instant.
    static func utcStamp(_ t: Double) -> String {
        let seconds = Int64(t.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        func p(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return CivilDate(daysSinceEpoch: Int(days)).iso + "T\(p(rest / 3600)):\(p(rest / 60 % 60)):\(p(rest % 60))Z"
    }
}
