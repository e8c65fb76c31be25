import FeedProtocol
import Agenda
import ICalendar
import CanonicalJSON
import Diagnostics
import Threads

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
        var heartbeats = HeartbeatLines(epoch: epoch, wall: now.wall)
        let stallTimeout = stallTimeout, heartbeat = heartbeat
        for id in deadlines.popDue(t) {
            // Read in place (see `withConnection`): a copy of the connection per due
            // subscriber was a good part of an idle daemon's heartbeat cost.
            guard let look = withConnection(id, { c -> DueLook in
                if c.hasUnreadData { return .stall(at: c.lastDrain + stallTimeout) }
                if case .live(let view) = c.subscription { return .heartbeat(view, at: c.lastSent + heartbeat) }
                return .nothing
            }) else { continue }
            switch look {
            case .stall(let stallAt):
                if t >= stallAt {
                    remove(id, reason: "stalled for \(Int(stallTimeout.seconds)) s with unread data")
                } else {
                    deadlines.schedule(id, at: stallAt)
                }
            case .heartbeat(let view, let heartbeatAt):
                if t >= heartbeatAt, let line = heartbeats.line(for: view, in: views) {
                    // (Queues it, which schedules the next look.)
                    sendSubscriptionData(line, kind: .heartbeat, to: id)
                } else {
                    deadlines.schedule(id, at: heartbeatAt)
                }
            case .nothing:
                // No subscription, nothing queued: nothing to watch until it is sent
                // something, which schedules it again.
                break
            }
        }
        for (view, feed) in views where feed.subscribers.isEmpty {
            if let idle = feed.idleSince, t - idle > viewGrace {
                dropView(view)
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
        if ready, t - lastStatusNotify >= .seconds(10) {
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
        shutdownDeadline = now.monotonic + .seconds(2)
        effects.append(.notify("STOPPING=1"))
        effects.append(.stopListening)
        effects.append(.log(.notice, "shutting down: \(connections.count) connection(s), flushing pending messages"))
        tick()
    }

    // MARK: - Status

    func statusMessage() -> [UInt8] {
        var lastRecompute = JSONValue.null
        if let at = info.lastRecompute {
            lastRecompute = ["time": .string(Self.utcStamp(at)), "duration_ms": .double((info.lastDurationMS * 10).rounded() / 10)]
        }
        let subscribers = views.values.reduce(0) { $0 + $1.subscribers.count }
        var fields: [String: JSONValue] = [
            "version": .string(ProductVersion.number),
            "epoch": .string(epoch),
            "uptime_seconds": .int(Int64((now.monotonic - started.monotonic).seconds)),
            "views": .int(Int64(views.count)),
            "subscribers": .int(Int64(subscribers)),
            "connections": .int(Int64(connections.count)),
            "database": .string(config.databasePath),
            "socket": .string(config.socketPath),
            "events": .int(Int64(info.eventCount)),
            "calendars": .int(Int64(info.calendars.count)),
            // The names too, so a client (the dashboard's filter) can list calendars
            // that have no event in its window.
            "calendar_names": .array(info.calendars.sorted().map { .string($0) }),
            // Their colours, so that every dashboard draws a calendar alike.
            "calendar_colors": .object(info.colors.filter { info.calendars.contains($0.key) }.mapValues { .string($0) }),
            "healthy": .bool(info.healthy),
            "last_recompute": lastRecompute,
            "sources": .array(sources.map(\.json)),
            "history": historyStatus(),
        ]
        // Absent, not null, while healthy.
        if let problem = info.problem { fields["problem"] = .string(problem) }
        return FeedMessage.status(fields)
    }

    /// What a due connection waits for (read in place by `tick`).
    private enum DueLook {
        case stall(at: MonotonicInstant)
        case heartbeat(View, at: MonotonicInstant)
        case nothing
    }

    /// The heartbeat lines of one tick: every subscriber of a view due in the same tick
    /// gets the same bytes (epoch, the view's seq, the tick's time), so each view's line
    /// is encoded once per tick, not once per subscriber (10,000 subscribers: 333 a
    /// second at the default 30 s).
    struct HeartbeatLines {
        let epoch: String
        let wall: WallInstant
        private var stamp: String?
        private var lines: [View: [UInt8]] = [:]
        private var last: (view: View, line: [UInt8])?

        init(epoch: String, wall: WallInstant) {
            self.epoch = epoch
            self.wall = wall
        }

        /// The line for `view`'s subscribers; nil when the view is gone.
        mutating func line(for view: View, in views: [View: ViewFeed]) -> [UInt8]? {
            // Most ticks' subscribers share one view: equal views compare in a few
            // loads, where hashing one hashes all its strings.
            if let last, last.view == view { return last.line }
            if let line = lines[view] {
                last = (view, line)
                return line
            }
            guard let feed = views[view] else { return nil }
            if stamp == nil { stamp = FeedHub.utcStamp(wall) }
            let line = FeedMessage.heartbeat(epoch: epoch, seq: feed.seq, time: stamp!)
            lines[view] = line
            last = (view, line)
            return line
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of a UTC instant.
    /// `YYYY-MM-DDTHH:MM:SSZ` of a wall-clock instant.
    static func utcStamp(_ t: WallInstant) -> String { utcStamp(unixSeconds: t.unixSeconds) }

    private static func utcStamp(unixSeconds seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        func p(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return CivilDate(daysSinceEpoch: Int(days)).iso + "T\(p(rest / 3600)):\(p(rest / 60 % 60)):\(p(rest % 60))Z"
    }
}
