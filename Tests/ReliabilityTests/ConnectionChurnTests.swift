import Foundation
import Testing
import CanonicalJSON
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 7. Connection churn: thousands of connects and disconnects, half of them in the
/// middle of a message (half a request line; closed while a snapshot is being written;
/// closed with a snapshot request outstanding). No descriptor leaks, the daemon still
/// answers, and no client ever gets an answer meant for another.
func connectionChurn() async throws {
    try await runIsolated("churn") { sandbox, checks in
        let scale = Rel.scale
        let daemon = DaemonProcess(sandbox)
        let file = sandbox.path("big.ics")
        try writeFile(file, Calendars.generated(events: 1500, seed: 5))
        try sandbox.importOK(db: daemon.db, [file, "--calendar", "big"])
        try daemon.start()
        let bigView: JSONValue = ["tz": "UTC", "days": 30]
        let small: JSONValue = ["tz": "UTC", "days": 1]
        let bigSnapshot = try daemon.snapshot(bigView)
        _ = try daemon.snapshot(small)
        // Someone keeps the big view active, so that subscribes get its snapshot at once.
        let keeper = try SubscriberPool(socket: daemon.socket, count: 1, view: bigView)
        defer { keeper.closeAll() }
        keeper.pump(until: { $0.state(of: 0) != nil }, timeout: 10)

        guard waitUntil(timeout: 5, { (try? daemon.status())?["connections"]?.intValue == 2 }) else {
            throw RelError("unexpected connections before churn: \(String(describing: try? daemon.status()))")
        }
        sleepSeconds(0.2)
        let fdsBefore = daemon.descriptorCount ?? -1

        let kinds = ["ping", "close-at-once", "half-line", "close-mid-snapshot", "close-with-request-outstanding", "half-close-snapshot"]
        var counts = [String: Int](), failures = [String: Int](), wrongAnswers = 0
        var wantTotal = 10_000 * scale
        let started = monotonicNow()
        var done = 0
        var rng = SeededRandom(seed: Rel.seed())
        let halfLine = Array(#"{"op":"subscribe","view":{"tz":"UT"#.utf8)
        while done < wantTotal {
            // Every other connection breaks off mid-message.
            let kind = done % 2 == 0 ? (Bool.random(using: &rng) ? "ping" : "close-at-once")
                                     : kinds[2 + Int.random(in: 0..<4, using: &rng)]
            counts[kind, default: 0] += 1
            do {
                let fd = try SubscriberPool.connect(daemon.socket)
                defer { close(fd) }
                var timeout = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var reader = LineReader(fd: fd)
                func sendAll(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
                switch kind {
                case "ping":
                    sendAll(Array("{\"op\":\"ping\"}\n".utf8))
                    let hello = reader.line(), answer = reader.line()
                    if hello.flatMap({ try? JSONValue.parse($0) })?["type"]?.stringValue != "hello" { failures[kind, default: 0] += 1 }
                    let type = answer.flatMap { try? JSONValue.parse($0) }?["type"]?.stringValue
                    if type != "pong" {
                        failures[kind, default: 0] += 1
                        if type != nil { wrongAnswers += 1 }
                        if (failures[kind] ?? 0) <= 3 { print("reliability: churn: ping answered with \(answer.map { String(decoding: $0.prefix(100), as: UTF8.self) } ?? "nothing")") }
                    }
                case "close-at-once":
                    break
                case "half-line":
                    sendAll(halfLine)
                case "close-mid-snapshot":
                    sendAll(Array("{\"op\":\"subscribe\",\"view\":{\"tz\":\"UTC\",\"days\":30}}\n".utf8))
                    var some = [UInt8](repeating: 0, count: 1024)
                    _ = some.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                case "close-with-request-outstanding":
                    sendAll(Array("{\"op\":\"snapshot\",\"view\":{\"tz\":\"UTC\",\"days\":1}}\n".utf8))
                case "half-close-snapshot":
                    // A request, then our side shut for writing: the answer must still come.
                    sendAll(Array("{\"op\":\"snapshot\",\"view\":{\"tz\":\"UTC\",\"days\":1}}\n".utf8))
                    shutdown(fd, Int32(SHUT_WR))
                    _ = reader.line()
                    let answer = reader.line().flatMap { try? JSONValue.parse($0) }
                    if answer?["type"]?.stringValue != "snapshot" { failures[kind, default: 0] += 1 }
                default:
                    break
                }
            } catch {
                failures["connect", default: 0] += 1
            }
            done += 1
            // 10,000 if the machine keeps up, else 2,000.
            if done == 2_000 * scale, monotonicNow() - started > 30 { wantTotal = done }
        }
        let churnSeconds = monotonicNow() - started

        // The daemon closes every one of them: back to the descriptors it had before.
        var fdsAfter = -1, connectionsAfter: Int64 = -1
        let settled = waitUntil(timeout: 10, every: 0.1) {
            connectionsAfter = (try? daemon.status())?["connections"]?.intValue ?? -1
            sleepSeconds(0.05)
            fdsAfter = daemon.descriptorCount ?? -1
            return fdsAfter == fdsBefore
        }
        checks.check(settled, "descriptor leak: \(fdsBefore) before, \(fdsAfter) after (status connections \(connectionsAfter))")
        checks.check(daemon.ping(), "the daemon does not answer ping after the churn")
        checks.check(try daemon.snapshot(bigView)["digest"] == bigSnapshot["digest"], "the big view changed")
        keeper.pump(timeout: 0.2)
        checks.check(keeper.openCount == 1 && keeper.problemCount == 0, "the long-lived subscriber suffered: \(keeper.problems)")
        for (kind, n) in failures.sorted(by: { $0.key < $1.key }) {
            checks.fail("\(n) of \(counts[kind] ?? 0) '\(kind)' connections went wrong")
        }
        checks.check(wrongAnswers == 0, "\(wrongAnswers) clients got an answer meant for another connection")
        Rel.report("churn", [("connections", done), ("seconds", churnSeconds), ("per_second", Double(done) / churnSeconds)]
                   + counts.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }
                   + [("failures", failures.values.reduce(0, +)), ("wrong_answers", wrongAnswers),
                      ("fds_before", fdsBefore), ("fds_after", fdsAfter),
                      ("daemon_rss_KiB", daemon.residentKiB ?? -1)])
    }
}

/// Reads lines from a blocking socket (with SO_RCVTIMEO set).
struct LineReader {
    let fd: Int32
    var buffer: [UInt8] = []

    mutating func line() -> [UInt8]? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let l = Array(buffer[..<nl])
                buffer.removeFirst(nl + 1)
                return l
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
    }
}
