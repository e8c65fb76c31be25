import Testing
import Glibc
import CanonicalJSON
import FeedClientKit
import FeedProtocol

/// The blocking driver over real sockets (socketpairs standing in for eventd): lines in,
/// the machine's effects out to the consumer, a new connection after the old one ends.
@Suite struct SubscriptionDriverTests {
    struct Enough: Error {}

    /// Records what it is handed; stops the run at the second diff.
    struct Recorder: SubscriptionDriver.Consumer {
        var seen: [String] = []

        mutating func handle(_ effect: SubscriptionMachine.Effect) throws {
            switch effect {
            case .snapshot(let s): seen.append("snapshot \(s.seq)")
            case .diff(_, let s): seen.append("diff \(s.seq)")
            case .lost(let reason): seen.append("lost: \(reason)")
            default: return
            }
            if seen.filter({ $0.hasPrefix("diff") }).count == 2 { throw Enough() }
        }

        func secondsUntilWake() -> Double? { nil }
        func wake() {}
    }

    @Test func aClosedConnectionIsMadeAgainAndResumed() throws {
        let one = [FeedScript.section("1", ["a"])], two = [FeedScript.section("1", ["a", "b"])]
        let three = [FeedScript.section("1", ["b"])]
        let hello = FeedScript.line(.hello(.init(epoch: FeedScript.epoch)))
        var scripts = [[hello, try FeedScript.snapshot(one, seq: 1), try FeedScript.diff(from: one, to: two, seq: 2)],
                       [hello, try FeedScript.diff(from: two, to: three, seq: 3)]]
        var peers: [Int32] = []
        defer { peers.forEach { close($0) } }
        let driver = SubscriptionDriver(.init(view: FeedScript.view, initialBackoff: .milliseconds(10)), open: {
            guard !scripts.isEmpty else { throw FeedSocket.Unavailable(description: "no daemon") }
            var fds: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw FeedSocket.Unavailable(description: "socketpair") }
            for line in scripts.removeFirst() { _ = (line + [10]).withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } }
            // The daemon's side ends after its lines.
            shutdown(fds[1], Int32(SHUT_WR))
            peers.append(fds[1])
            return FeedSocket(adopting: fds[0])
        })
        var recorder = Recorder()
        #expect(throws: Enough.self) { _ = try driver.run(&recorder) }
        #expect(recorder.seen == ["snapshot 1", "diff 2", "lost: the daemon closed the connection", "diff 3"])
        // What each connection asked for: a fresh subscription, then a resume from seq 2.
        let requests = try peers.map { fd in
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            return try Request.decode(buffer[..<max(0, n - 1)]).get()
        }
        #expect(requests == [.subscribe(view: FeedScript.view, resume: nil, protocolVersion: 2),
                             .subscribe(view: FeedScript.view, resume: .init(epoch: FeedScript.epoch, seq: 2), protocolVersion: 2)])
    }
}
