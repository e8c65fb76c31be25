import Agenda
import CanonicalJSON
import Threads
@testable import Feed

/// Drives a `FeedHub` the way `FeedLoop` does, with no sockets: a fake clock, fake
/// sockets that take as many bytes as a test allows, and a record of every effect.
struct HubHarness {
    var hub: FeedHub
    var now: Moment
    /// Bytes each client has been sent and not yet read by the test.
    var inbox: [ConnectionID: [UInt8]] = [:]
    /// How many more bytes each client's socket takes (nil: unlimited).
    var room: [ConnectionID: Int] = [:]
    var closed: Set<ConnectionID> = []
    var readingStopped: Set<ConnectionID> = []
    var jobs: [RecomputeJob] = []
    /// `syncSources` effects (names, token) and `reloadSources` effects, in order.
    var syncs: [(names: [String], token: Int)] = []
    var reloads = 0
    var reopens = 0
    var notifications: [String] = []
    var logs: [String] = []
    var stoppedListening = false
    var exited = false
    /// Whether `encodeSnapshot` jobs are answered as soon as the event that asked ends,
    /// as a recomputer with nothing else to do would (false: a test answers them).
    var answersEncodes = true
    /// The last state published of each view (what the recomputer would encode).
    var published: [View: Int64] = [:]
    private var encodes: [View] = []
    private var nextID = 1

    static let epoch = "e1"
    static let zone = "Europe/Berlin"

    init(watchdog: Double? = nil, followsSystemZone: Bool = false, configure: (inout DaemonConfiguration) -> Void = { _ in }) {
        var config = DaemonConfiguration(databasePath: "/tmp/none.db", socketPath: "/tmp/none.sock", timeZone: Self.zone)
        configure(&config)
        now = Moment(monotonic: at(1000), wall: WallInstant(unixSeconds: 1_795_000_000)) // 2026-11-18
        hub = FeedHub(config: config, epoch: Self.epoch, watchdogInterval: watchdog.map { .seconds($0) }, followsSystemZone: followsSystemZone, now: now)
        handle(.recomputed(.info(StoreInfo(calendars: ["work", "home"], eventCount: 3, lastRecompute: nil,
                                           lastDurationMS: 0, healthy: true, problem: nil))))
    }

    // MARK: - Events

    mutating func handle(_ event: FeedEvent) {
        var queue = hub.handle(event, at: now)
        var i = 0
        while i < queue.count {
            queue.append(contentsOf: perform(queue[i]))
            i += 1
        }
        if answersEncodes { answerEncodes() }
    }

    /// Answers the `encodeSnapshot` jobs asked for so far with the view's last published state.
    mutating func answerEncodes() {
        while !encodes.isEmpty {
            let view = encodes.removeFirst()
            guard let seq = published[view] else { continue }
            handle(.recomputed(.snapshot(view, seq: seq, message: Self.snapshotMessage(seq: seq))))
        }
    }

    private mutating func perform(_ effect: FeedEffect) -> [FeedEffect] {
        switch effect {
        case .flush(let id): return write(id)
        case .refuse(let id, let bytes):
            inbox[id, default: []] += bytes
            closed.insert(id)
        case .stopReading(let id): readingStopped.insert(id)
        case .close(let id): closed.insert(id)
        case .recompute(let job):
            jobs.append(job)
            if case .encodeSnapshot(let view) = job { encodes.append(view) }
        case .syncSources(let names, let token): syncs.append((names, token))
        case .reloadSources: reloads += 1
        case .reopenSources: reopens += 1
        case .notify(let message): notifications.append(message)
        case .log(_, let message): logs.append(message)
        case .stopListening: stoppedListening = true
        case .exit: exited = true
        }
        return []
    }

    /// What the loop does when a socket is writable: write what it takes, tell the hub;
    /// after a snapshot's piece that others follow, tell the hub (it takes the next
    /// piece) and go on while the socket takes more.
    private mutating func write(_ id: ConnectionID) -> [FeedEffect] {
        var effects: [FeedEffect] = []
        while !closed.contains(id), let outbox = hub.output(id) {
            var budget = room[id] ?? .max
            var written: [UInt8] = []
            var offset = outbox.offset
            var pieceDone = false
            for message in outbox.pending where budget > 0 {
                let remaining = message.bytes.count - offset
                let take = min(budget, remaining)
                written += message.bytes[offset..<offset + take]
                budget -= take
                offset = 0
                if message.hasMorePieces {
                    pieceDone = take == remaining
                    break
                }
            }
            if room[id] != nil { room[id]! -= written.count }
            inbox[id, default: []] += written
            effects += hub.handle(.connection(.wrote(id, count: written.count)), at: now)
            guard pieceDone else { break }
        }
        return effects
    }

    /// The client's socket has room again (`room` bytes, nil: unlimited): the loop writes.
    mutating func makeRoom(_ id: ConnectionID, _ bytes: Int? = nil) {
        room[id] = bytes
        var queue = write(id)
        var i = 0
        while i < queue.count {
            queue.append(contentsOf: perform(queue[i]))
            i += 1
        }
        if answersEncodes { answerEncodes() }
    }

    mutating func connect(room bytes: Int? = nil) -> ConnectionID {
        let id = nextID
        nextID += 1
        room[id] = bytes
        handle(.connection(.accepted(id)))
        return id
    }

    mutating func request(_ id: ConnectionID, _ line: String) { handle(.connection(.received(id, ArraySlice(Array((line + "\n").utf8))))) }

    /// Advances both clocks.
    mutating func advance(_ seconds: Double) {
        now.monotonic = now.monotonic + .seconds(seconds)
        now.wall = now.wall + .seconds(seconds)
        handle(.tick)
    }

    /// Steps only the wall clock (NTP, suspend, an administrator), then ticks.
    mutating func stepWall(_ seconds: Double) {
        now.wall = now.wall + .seconds(seconds)
        handle(.tick)
    }

    // MARK: - The recomputer's side

    /// Publishes state `seq` of `view`: its first snapshot when `diff` is false, else a
    /// diff alone (as the recomputer does: the snapshot is encoded when asked for).
    mutating func publish(_ view: View, seq: Int64, diff: Bool = true, snapshotBytes: Int? = nil, items: Int? = nil) {
        published[view] = seq
        handle(.recomputed(.published(view, ViewPublication(
            seq: seq, snapshotMessage: diff ? nil : Self.snapshotMessage(seq: seq),
            diffMessage: diff ? Self.diffLine(seq: seq) : nil, snapshotBytes: snapshotBytes, items: items))))
    }

    /// `snapshotLine` as the feed holds it: in pieces of `pieceSize` bytes (small, so
    /// that every test writes snapshots piece by piece).
    static func snapshotMessage(seq: Int64, padding: Int = 0, pieceSize: Int = 1000) -> SnapshotMessage {
        SnapshotMessage(bytes: snapshotLine(seq: seq, padding: padding), pieceSize: pieceSize)
    }

    static func snapshotLine(seq: Int64, padding: Int = 0) -> [UInt8] {
        Array("{\"type\":\"snapshot\",\"seq\":\(seq),\"pad\":\"\(String(repeating: "x", count: padding))\"}\n".utf8)
    }

    static func diffLine(seq: Int64) -> [UInt8] {
        Array("{\"type\":\"diff\",\"seq\":\(seq),\"base_seq\":\(seq - 1)}\n".utf8)
    }

    static func view(days: Int = 14) -> View { View(timeZone: zone, days: days) }

    /// Takes the jobs the hub asked for so far.
    mutating func takeJobs() -> [RecomputeJob] {
        defer { jobs = [] }
        return jobs
    }

    // MARK: - The client's side

    /// The complete lines a client received since the last call, parsed.
    mutating func messages(_ id: ConnectionID) -> [JSONValue] {
        let bytes = inbox[id] ?? []
        guard let last = bytes.lastIndex(of: 10) else { return [] }
        inbox[id] = Array(bytes[(last + 1)...])
        return bytes[...last].split(separator: 10).map { (try? JSONValue.parse($0, maxDepth: 32)) ?? .null }
    }

    /// The `type` (and `reason`/`code`/`seq`, when present) of each message received.
    mutating func kinds(_ id: ConnectionID) -> [String] {
        messages(id).map { m in
            var s = m["type"]?.stringValue ?? "?"
            if let r = m["reason"]?.stringValue ?? m["code"]?.stringValue { s += ":" + r }
            if let seq = m["seq"]?.intValue { s += "@\(seq)" }
            return s
        }
    }
}

/// The monotonic instant `seconds` after the clock's start (the tests' fake clock).
func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(sinceStart: .seconds(seconds)) }
