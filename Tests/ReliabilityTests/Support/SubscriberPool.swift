import Foundation
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Many feed subscribers served by one thread with `poll`. Every reader keeps its own
/// local copy of the view (TestSupport's `FeedState`), applies each diff it receives and
/// checks the resulting digest against the diff's `digest`.
///
/// Work is shared between readers without trusting the daemon: a message line is parsed
/// once per distinct byte content, and applying the same diff bytes to the same local
/// state (same snapshot bytes followed by the same diff bytes) is computed once and its
/// result reused — the result is a pure function of those inputs.
// @unchecked: the readers are pumped by one thread at a time: the test's, or the
// background loop between `startBackground()` and `stopBackground()`.
final class SubscriberPool: @unchecked Sendable {
    struct Reader {
        var fd: Int32
        var buffer: [UInt8] = []
        var scanFrom = 0
        var gotHello = false
        var epoch: String?
        var stateID: Int?
        var open = true
        var closedReason: String?
        var snapshots = 0
        var diffs = 0
        var heartbeats = 0
        var resyncs: [String: Int] = [:]
        var errors = 0
    }

    private struct LineKey: Hashable {
        var hash: Int
        var count: Int
    }

    private struct Transition: Hashable {
        var state: Int
        var line: LineKey
    }

    let view: JSONValue
    private(set) var readers: [Reader] = []
    /// Protocol problems: digest mismatches, seq gaps, messages out of place (first 50 kept).
    private(set) var problems: [String] = []
    private(set) var problemCount = 0
    private(set) var digestMismatches = 0
    private(set) var bytesRead = 0
    private(set) var linesRead = 0

    private var parsed: [LineKey: ([UInt8], JSONValue)] = [:]
    private var parsedBytes = 0
    private var snapshotStates: [LineKey: Int] = [:]
    private var transitions: [Transition: (Int?, Bool, String?)] = [:]
    private var states: [Int: FeedState] = [:]
    private var digests: [Int: String] = [:]
    private var nextStateID = 1
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

    private var background: BackgroundLoop?

    /// Connects `count` readers and subscribes each to `view`.
    init(socket: String, count: Int, view: JSONValue) throws {
        self.view = view
        readers.reserveCapacity(count)
        for _ in 0..<count { try add(socket: socket) }
    }

    deinit { closeAll() }

    private func add(socket path: String) throws {
        let fd = try Self.connect(path)
        var line = (["op": "subscribe", "view": view] as JSONValue).canonicalBytes()
        line.append(10)
        let sent = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == line.count else { close(fd); throw RelError("cannot send subscribe: \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        readers.append(Reader(fd: fd))
    }

    /// A blocking, close-on-exec connection to a Unix socket.
    static func connect(_ path: String) throws -> Int32 {
        do {
            return try UnixSocket.connect(path)
        } catch {
            throw RelError("\(error)")
        }
    }

    func closeAll() {
        for i in readers.indices where readers[i].fd >= 0 {
            close(readers[i].fd)
            readers[i].fd = -1
            readers[i].open = false
        }
    }

    // MARK: - Pumping

    /// One `poll` over the open readers (waits at most `timeout` seconds); reads and
    /// processes whatever arrived.
    func pump(timeout: Double) {
        var fds: [pollfd] = []
        var index: [Int] = []
        for (i, r) in readers.enumerated() where r.open {
            fds.append(pollfd(fd: r.fd, events: Int16(POLLIN), revents: 0))
            index.append(i)
        }
        if fds.isEmpty { sleepSeconds(timeout); return }
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), Int32(timeout * 1000)) }
        guard n > 0 else { return }
        for (k, p) in fds.enumerated() where p.revents != 0 { readAvailable(index[k]) }
        if states.count > 64 { collectStates() }
    }

    /// Pumps until `condition` holds or `timeout` passes.
    @discardableResult
    func pump(until condition: (SubscriberPool) -> Bool, timeout: Double) -> Bool {
        let deadline = monotonicNow() + timeout
        while true {
            if condition(self) { return true }
            if monotonicNow() >= deadline { return false }
            pump(timeout: 0.05)
        }
    }

    /// Pumps on a thread of its own until `stopBackground()`.
    func startBackground() {
        background = BackgroundLoop(name: "reliability-subscribers") { [self] in pump(timeout: 0.05) }
    }

    func stopBackground() {
        background?.stop()
        background = nil
    }

    /// Pumps until every reader's state equals a fresh snapshot of `view` from `daemon`
    /// (same digest, same seq). Returns whether they did within `timeout`, and the last
    /// fresh snapshot.
    func catchUp(with daemon: DaemonProcess, timeout: Double) -> (caughtUp: Bool, fresh: JSONValue) {
        var fresh: JSONValue = .null
        let caughtUp = pump(until: { p in
            guard let f = try? daemon.snapshot(p.view) else { return false }
            fresh = f
            return p.readers.indices.allSatisfy { p.digest(of: $0) == f["digest"]?.stringValue && p.state(of: $0)?.seq == f["seq"]?.intValue }
        }, timeout: timeout)
        return (caughtUp, fresh)
    }

    private func readAvailable(_ i: Int) {
        var budget = 1 << 20
        while budget > 0, readers[i].open {
            let fd = readers[i].fd
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 { closeReader(i, "eof"); return }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                closeReader(i, errno == ECONNRESET ? "reset" : "error \(errno)")
                return
            }
            budget -= n
            bytesRead += n
            readers[i].buffer.append(contentsOf: scratch[0..<n])
            processLines(i)
        }
    }

    private func closeReader(_ i: Int, _ reason: String) {
        processLines(i)
        readers[i].open = false
        readers[i].closedReason = reason
        close(readers[i].fd)
        readers[i].fd = -1
    }

    private func processLines(_ i: Int) {
        var start = 0
        while true {
            let count = readers[i].buffer.count
            let from = max(start, readers[i].scanFrom)
            guard from < count else { readers[i].scanFrom = from; break }
            let newline: Int? = readers[i].buffer.withUnsafeBufferPointer { b in
                guard let p = memchr(b.baseAddress! + from, 10, count - from) else { return nil }
                return b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
            }
            guard let newline else { readers[i].scanFrom = count; break }
            let line = Array(readers[i].buffer[start..<newline])
            start = newline + 1
            readers[i].scanFrom = start
            handle(line, reader: i)
        }
        if start > 0 {
            readers[i].buffer.removeFirst(start)
            readers[i].scanFrom -= start
        }
    }

    private func key(_ line: [UInt8]) -> LineKey {
        var h = Hasher()
        line.withUnsafeBytes { h.combine(bytes: $0) }
        return LineKey(hash: h.finalize(), count: line.count)
    }

    private func problem(_ i: Int, _ text: String) {
        problemCount += 1
        readers[i].errors += 1
        if problems.count < 50 { problems.append("reader \(i): \(text)") }
    }

    private func parse(_ line: [UInt8], _ k: LineKey) -> JSONValue? {
        if let (bytes, value) = parsed[k], Self.same(bytes, line) { return value }
        guard let value = try? JSONValue.parse(line, maxDepth: 64) else { return nil }
        // Only lines many readers get at about the same time need remembering; parsed
        // JSON is large, so keep few.
        if parsed.count >= 16 || parsedBytes + line.count > 16 << 20 {
            parsed.removeAll(keepingCapacity: true)
            parsedBytes = 0
        }
        parsed[k] = (line, value)
        parsedBytes += line.count
        return value
    }

    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } }
    }

    private func handle(_ line: [UInt8], reader i: Int) {
        linesRead += 1
        let k = key(line)
        guard let message = parse(line, k) else { problem(i, "not JSON: \(String(decoding: line.prefix(80), as: UTF8.self))"); return }
        let type = message["type"]?.stringValue ?? "?"
        if !readers[i].gotHello {
            if type == "hello" { readers[i].gotHello = true; readers[i].epoch = message["epoch"]?.stringValue }
            else { problem(i, "first message is \(type), not hello") }
            return
        }
        switch type {
        case "snapshot":
            readers[i].snapshots += 1
            if let id = snapshotStates[k], states[id] != nil {
                readers[i].stateID = id
                return
            }
            do {
                let state = try FeedState(snapshot: message)
                let id = newState(state)
                snapshotStates[k] = id
                readers[i].stateID = id
            } catch let error as ApplyError where error.isDigestMismatch {
                digestMismatches += 1
                problem(i, "snapshot seq \(message["seq"]?.description ?? "?"): its digest does not match its sections")
            } catch {
                problem(i, "bad snapshot: \(error)")
            }
        case "diff":
            readers[i].diffs += 1
            guard let id = readers[i].stateID else { problem(i, "diff seq \(message["seq"]?.description ?? "?") before any snapshot"); return }
            let t = Transition(state: id, line: k)
            let outcome: (Int?, Bool, String?)
            if let memo = transitions[t] {
                outcome = memo
            } else {
                var state = states[id]!
                do {
                    try state.apply(message)
                    outcome = (newState(state), true, nil)
                } catch let error as ApplyError where error.isDigestMismatch {
                    outcome = (nil, false, "digest mismatch after diff seq \(message["seq"]?.description ?? "?")")
                } catch {
                    outcome = (nil, false, "diff does not apply: \(error)")
                }
                transitions[t] = outcome
            }
            if let error = outcome.2 {
                if error.hasPrefix("digest") { digestMismatches += 1 }
                problem(i, error)
                readers[i].stateID = nil
                // As eventctl does: subscribe again for a fresh snapshot.
                var request = (["op": "subscribe", "view": view] as JSONValue).canonicalBytes()
                request.append(10)
                _ = request.withUnsafeBytes { send(readers[i].fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            } else {
                readers[i].stateID = outcome.0
            }
        case "heartbeat":
            readers[i].heartbeats += 1
            if let id = readers[i].stateID, let seq = message["seq"]?.intValue, let state = states[id], seq != state.seq {
                problem(i, "heartbeat with seq \(seq) while the local state is at seq \(state.seq)")
            }
        case "resync":
            let reason = message["reason"]?.stringValue ?? "?"
            readers[i].resyncs[reason, default: 0] += 1
            readers[i].stateID = nil
        default:
            problem(i, "unexpected \(String(decoding: line.prefix(160), as: UTF8.self))")
        }
    }

    private func newState(_ s: FeedState) -> Int {
        let id = nextStateID
        nextStateID += 1
        states[id] = s
        return id
    }

    /// Drops local states no reader holds any more (and the memos that name them).
    private func collectStates() {
        let live = Set(readers.compactMap(\.stateID))
        for id in states.keys where !live.contains(id) { states[id] = nil; digests[id] = nil }
        transitions = transitions.filter { states[$0.key.state] != nil && ($0.value.0 == nil || states[$0.value.0!] != nil) }
        snapshotStates = snapshotStates.filter { states[$0.value] != nil }
    }

    // MARK: - Results

    func state(of i: Int) -> FeedState? { readers[i].stateID.flatMap { states[$0] } }

    func digest(of i: Int) -> String? {
        guard let id = readers[i].stateID, let s = states[id] else { return nil }
        if let d = digests[id] { return d }
        let d = s.digest
        digests[id] = d
        return d
    }

    /// Every open reader holds a state at `seq`.
    func allAt(seq: Int64, indices: Range<Int>? = nil) -> Bool {
        for i in indices ?? readers.indices where readers[i].open {
            guard let s = state(of: i), s.seq == seq else { return false }
        }
        return true
    }

    var openCount: Int { readers.filter(\.open).count }
    var totalDiffs: Int { readers.reduce(0) { $0 + $1.diffs } }
    var totalSnapshots: Int { readers.reduce(0) { $0 + $1.snapshots } }
    func totalResyncs(_ reason: String) -> Int { readers.reduce(0) { $0 + ($1.resyncs[reason] ?? 0) } }
}
