import Foundation
import CanonicalJSON
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The hostile-input suites run one at a time: the socket fuzz measures throughput and
/// latency, which a parallel corpus import would distort.
@Suite(.serialized) struct HostileInputTests {}

/// A flag one task sets and others poll.
// @unchecked: `value` is only read and written under `lock`.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}

/// A week of events around the harness clock (2026-11-29 12:00 UTC).
enum FuzzCalendars {
    static func team(renamed: Bool) -> String {
        icsCalendar([
            TestEvent("standup@fuzz", "20261130T090000Z", "20261130T091500Z", renamed ? "Standup (moved room)" : "Standup",
                      extra: ["RRULE:FREQ=DAILY;COUNT=10"]),
            TestEvent("review@fuzz", "20261201T140000Z", "20261201T150000Z", "Review"),
            TestEvent("offsite@fuzz", "20261202", "20261204", "Offsite"),
        ] + (renamed ? [TestEvent("new@fuzz", "20261203T100000Z", "20261203T110000Z", "Added during the fuzz")] : []))
    }
}

extension HostileInputTests {
    @Suite struct SocketFuzz {
        /// The well-behaved client: pings every 50 ms and applies every diff of its
        /// subscription, checking each digest, until told to stop.
        struct ObserverResult: Sendable {
            var pongs = 0
            var maxLatency = 0.0
            var diffs = 0
            var problems: [String] = []
            var digest = ""
            var seq: Int64 = 0
        }

        static func observe(_ client: FeedClient, state start: FeedState, stop: StopFlag) async -> ObserverResult {
            var result = ObserverResult()
            var state = start
            while !stop.isSet {
                let sentAt = monotonicNow()
                do {
                    try await client.send(["op": "ping"])
                    while true {
                        let message = try await client.next(timeout: 10)
                        let type = message["type"]?.stringValue
                        if type == "pong" { break }
                        if type == "diff" {
                            try state.apply(message)
                            result.diffs += 1
                        } else {
                            result.problems.append("observer got \(FeedClient.brief(message))")
                        }
                    }
                } catch {
                    result.problems.append("observer: \(error)")
                    break
                }
                result.pongs += 1
                result.maxLatency = max(result.maxLatency, monotonicNow() - sentAt)
                try? await pause(0.05)
            }
            result.digest = state.digest
            result.seq = state.seq
            return result
        }

        struct WorkerResult: Sendable {
            var lines = 0
            var bytes = 0
            var connections = 0
            var hugeSessions = 0
            var hugeClosed = 0
            var trickleSessions = 0
            var answers = 0
            var problems: [String] = []
            var categories: [String: Int] = [:]
        }

        /// One worker: connection after connection of fuzzed lines until `target` lines
        /// are sent or `deadline` passes.
        static func work(seed: UInt64, socket: String, target: Int, deadline: Double) -> WorkerResult {
            var fuzzer = RequestFuzzer(seed: seed, calendars: ["team"])
            var rng = SeededRandom(seed: seed ^ 0xF00D)
            var result = WorkerResult()
            while result.lines < target && monotonicNow() < deadline {
                let connection: FuzzConnection
                do { connection = try FuzzConnection(path: socket) } catch {
                    result.problems.append("connect: \(error)")
                    break
                }
                result.connections += 1
                let kind = Int.random(in: 0..<20, using: &rng)
                let count = kind == 0 ? 5 : Int.random(in: 200...3000, using: &rng)
                var endsWithHugeLine = false
                for _ in 0..<min(count, target - result.lines) {
                    let (line, _) = fuzzer.next()
                    result.lines += 1
                    result.bytes += line.count + 1
                    if line.count > 65536 {
                        // Over the limit (a view naming 10,000 calendars): the last line of this connection.
                        connection.queueRaw(line + [10])
                        endsWithHugeLine = true
                        break
                    }
                    connection.queue(line)
                }
                switch endsWithHugeLine ? 1 : kind {
                case 1:
                    // A line over 64 KiB: answered with line_too_long, then the connection closes.
                    result.hugeSessions += 1
                    var size = 0
                    if !endsWithHugeLine {
                        size = Int.random(in: 65_537...300_000, using: &rng)
                        var huge = [UInt8](repeating: 0, count: size)
                        for i in huge.indices { huge[i] = UInt8.random(in: 32...126, using: &rng) }
                        if Bool.random(using: &rng) { huge.replaceSubrange(0..<13, with: Array(#"{"op":"ping",""#.utf8)) }
                        connection.queueRaw(huge + (Bool.random(using: &rng) ? [10] : []))
                    }
                    connection.pump(deadline: monotonicNow() + 30, maxPiece: 65536, trickle: false, rng: &rng)
                    _ = connection.readUntilClosed(timeout: 10)
                    if connection.closedByDaemon && connection.lastError == "line_too_long" { result.hugeClosed += 1 }
                    else { result.problems.append("a \(size)-byte line: closed=\(connection.closedByDaemon) last error=\(connection.lastError ?? "none")") }
                    if connection.pendingAnswers > 0 {
                        result.problems.append("\(connection.pendingAnswers) lines before a huge line were not answered")
                    }
                case 2:
                    // Exactly 64 KiB: still a request (padded JSON).
                    let line = Array(#"{"op":"ping""#.utf8) + [UInt8](repeating: 32, count: 65536 - 13) + [125]
                    connection.queue(line)
                    result.lines += 1
                    connection.pump(deadline: monotonicNow() + 30, maxPiece: 65536, trickle: false, rng: &rng)
                case 0:
                    // One request split over many writes, a byte at a time.
                    result.trickleSessions += 1
                    connection.queue(Array(#"{"op":"ping"}"#.utf8))
                    connection.pump(deadline: monotonicNow() + 30, maxPiece: 1, trickle: true, rng: &rng)
                default:
                    connection.pump(deadline: monotonicNow() + 60, maxPiece: 8192, trickle: false, rng: &rng)
                }
                if kind != 1 && !endsWithHugeLine {
                    // Every line answered: a final ping's pong comes last.
                    connection.queue(Array(#"{"op":"ping"}"#.utf8))
                    connection.pump(deadline: monotonicNow() + 30, maxPiece: 64, trickle: false, rng: &rng)
                    if connection.closedByDaemon { result.problems.append("the daemon closed a connection that sent no huge line") }
                    if connection.pendingAnswers > 0 { result.problems.append("\(connection.pendingAnswers) lines not answered") }
                }
                result.answers += connection.answers
                result.problems += connection.problems
                if result.problems.count > 50 { break }
            }
            result.categories = fuzzer.categoryCounts
            return result
        }

        @Test func fuzzedRequestLinesNeverHurtTheDaemonOrOtherClients() async throws {
            try await DaemonHarness.with(arguments: ["--heartbeat", "3"]) { daemon in
                try await daemon.start()
                try await daemon.importCalendar(FuzzCalendars.team(renamed: false), file: "team.ics", calendar: "team")
                let view: JSONValue = ["tz": "UTC", "days": 7]
                let (observer, first) = try await daemon.subscribe(view)
                let rssBefore = daemon.residentKiB() ?? 0

                let workers = 3
                let target = 100_000 * Hostile.scale
                let budget = 30.0 * Double(Hostile.scale)
                let started = monotonicNow()
                let deadline = started + budget
                let stop = StopFlag()
                let socket = daemon.socketPath
                async let observed = Self.observe(observer, state: first, stop: stop)
                async let results: [WorkerResult] = withTaskGroup(of: WorkerResult.self) { group in
                    for w in 0..<workers {
                        let share = target / workers + (w < target % workers ? 1 : 0)
                        group.addTask { await onThread { Self.work(seed: 0xE7E_17D + UInt64(w), socket: socket, target: share, deadline: deadline) } }
                    }
                    var all: [WorkerResult] = []
                    for await r in group { all.append(r) }
                    return all
                }
                // Midway, the data changes: the observer must get a correct diff.
                try await pause(min(5, budget / 3))
                try await daemon.importCalendar(FuzzCalendars.team(renamed: true), file: "team.ics", calendar: "team")
                let workerResults = await results
                let elapsed = monotonicNow() - started
                // Let the observer see the diff if it has not yet.
                _ = try await eventually(timeout: 10) { daemon.pid != nil }
                try await pause(0.5)
                stop.set()
                let seen = await observed

                var total = WorkerResult()
                var categories: [String: Int] = [:]
                for r in workerResults {
                    total.lines += r.lines; total.bytes += r.bytes; total.connections += r.connections
                    total.hugeSessions += r.hugeSessions; total.hugeClosed += r.hugeClosed
                    total.trickleSessions += r.trickleSessions; total.answers += r.answers
                    total.problems += r.problems
                    categories.merge(r.categories, uniquingKeysWith: +)
                }
                #expect(total.problems.isEmpty, "\(total.problems.prefix(20))")
                #expect(seen.problems.isEmpty, "\(seen.problems)")
                #expect(total.lines >= min(target, 10_000), "only \(total.lines) lines in \(elapsed) s")
                #expect(total.hugeSessions == total.hugeClosed)
                #expect(seen.diffs >= 1, "the observer never got the import's diff")
                #expect(seen.pongs > 10)
                #expect(seen.maxLatency < 5, "the well-behaved client waited \(seen.maxLatency) s for a pong")

                // The daemon lives, its state agrees with the observer, and it says so.
                let pid = try #require(daemon.pid)
                #expect(ChildProcess.poll(pid) == nil, "eventd died during the fuzz")
                let fresh = try await daemon.oneShotSnapshot(view)
                #expect(fresh.digest == seen.digest, "observer digest \(seen.digest) (seq \(seen.seq)), daemon \(fresh.digest) (seq \(fresh.seq))")
                #expect(fresh.items(uid: "new@fuzz").count == 1)
                let status = try await daemon.status()
                #expect(status["type"]?.stringValue == "status")
                #expect(status["healthy"]?.boolValue == true)
                let rssAfter = daemon.residentKiB() ?? 0
                let exit = await daemon.stop()
                #expect(exit == .exited(0), "eventd ended with \(exit.map { "\($0)" } ?? "no exit") after SIGTERM")
                let severe = daemon.log.split(separator: "\n").filter { $0.hasPrefix("<0>") || $0.hasPrefix("<1>") || $0.hasPrefix("<2>") }
                #expect(severe.isEmpty, "\(severe.prefix(5))")

                Hostile.report("fuzzedRequestLinesNeverHurtTheDaemonOrOtherClients",
                               ["lines": total.lines, "bytes": total.bytes, "seconds": Hostile.seconds(elapsed),
                                "lines_per_second": Int(Double(total.lines) / max(elapsed, 0.001)),
                                "connections": total.connections, "answers": total.answers,
                                "huge_lines": total.hugeSessions, "trickled": total.trickleSessions,
                                "observer_pongs": seen.pongs, "observer_max_latency_s": Hostile.seconds(seen.maxLatency),
                                "observer_diffs": seen.diffs, "rss_kib_before": rssBefore, "rss_kib_after": rssAfter,
                                "categories": categories.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","),
                                "problems": total.problems.count + seen.problems.count])
            }
        }
    }
}

extension HostileInputTests.SocketFuzz {
    /// Requests a flooder repeats: a cheap one with a 25-fold larger answer, and a
    /// snapshot of ten years of placeholder days (a ~400 KB answer each, computed by the
    /// recomputer thread).
    static let floods: [String: String] = [
        "status": #"{"op":"status"}"#,
        "snapshot": #"{"op":"snapshot","view":{"tz":"UTC","days":3660,"empty_days":"placeholder"}}"#,
    ]

    /// A client that pipelines requests and never reads the answers: the daemon must
    /// not buffer answers (or queue work) without bound, nor stop serving others, and
    /// the stall timeout must end the connection.
    @Test(arguments: ["status", "snapshot"])
    func floodWithoutReadingStaysBoundedAndOthersAreServed(_ kind: String) async throws {
        let request = Self.floods[kind]!
        try await DaemonHarness.with(arguments: ["--stall-timeout", "4"]) { daemon in
            try await daemon.start()
            try await daemon.importCalendar(FuzzCalendars.team(renamed: false), file: "team.ics", calendar: "team")
            let observer = try await daemon.connect()
            let rssBefore = daemon.residentKiB() ?? 0
            let seconds = 6.0 * Double(min(Hostile.scale, 5))
            let socket = daemon.socketPath
            let stop = StopFlag()
            // The flooder: writes status requests (a ~400-byte answer for 16 bytes) as
            // fast as the daemon takes them, reading nothing.
            let flood = Task.detached { () -> (written: Int, closed: Bool, seconds: Double) in
                await onThread {
                    guard let c = try? FuzzConnection(path: socket) else { return (0, false, 0) }
                    let chunk = [UInt8](String(repeating: request + "\n", count: 64).utf8)
                    var written = 0
                    let start = monotonicNow()
                    while monotonicNow() - start < seconds + 10 && !stop.isSet {
                        var p = pollfd(fd: c.fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&p, 1, 50)
                        if p.revents & Int16(POLLERR | POLLHUP) != 0 { return (written, true, monotonicNow() - start) }
                        guard p.revents & Int16(POLLOUT) != 0 else { continue }
                        let n = chunk.withUnsafeBytes { send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                        if n > 0 { written += n } else if n < 0 && errno != EAGAIN && errno != EINTR {
                            return (written, true, monotonicNow() - start)
                        }
                    }
                    return (written, false, monotonicNow() - start)
                }
            }
            var maxLatency = 0.0
            var pongs = 0
            var peakRSS = rssBefore
            let started = monotonicNow()
            while monotonicNow() - started < seconds {
                let t0 = monotonicNow()
                let answer = try await observer.request(["op": "ping"], timeout: 10)
                #expect(answer["type"]?.stringValue == "pong")
                pongs += 1
                maxLatency = max(maxLatency, monotonicNow() - t0)
                peakRSS = max(peakRSS, daemon.residentKiB() ?? 0)
                try await pause(0.1)
            }
            // The stall timeout (4 s) ends the flooder's connection.
            let ended = try await eventually(timeout: 15) { daemon.logLineCount(containing: "stalled") >= 1 }
            stop.set()
            let flooded = await flood.value
            peakRSS = max(peakRSS, daemon.residentKiB() ?? 0)
            let growth = peakRSS - rssBefore
            #expect(ended, "the non-reading client was never disconnected for stalling")
            #expect(maxLatency < 3, "the well-behaved client waited \(maxLatency) s for a pong")
            // Answers owed to a client that does not read are bounded by its buffer
            // (8 MiB by default), not by what it manages to send.
            #expect(growth < 96 * 1024, "eventd grew by \(growth) KiB while a client flooded it without reading")
            let pid = try #require(daemon.pid)
            #expect(ChildProcess.poll(pid) == nil)
            Hostile.report("floodWithoutReadingStaysBoundedAndOthersAreServed(\(kind))",
                           ["bytes_sent": flooded.written, "requests_sent": flooded.written / (request.utf8.count + 1),
                            "flood_seconds": Hostile.seconds(flooded.seconds), "disconnected": ended,
                            "rss_kib_before": rssBefore, "rss_kib_peak": peakRSS, "growth_kib": growth,
                            "observer_pongs": pongs, "observer_max_latency_s": Hostile.seconds(maxLatency)])
        }
    }
}
