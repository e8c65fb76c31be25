import CanonicalJSON
import FeedClientKit
import FeedProtocol
import Foundation
import Synchronization
import Testing
import Threads
@testable import TerminalAgenda

/// `watch`'s threads as services: each ends and is joined promptly once stopped, in a
/// blocked read as well as between reconnections.
@Suite(.timeLimit(.minutes(1)))
struct WatchServicesTests {
    static let view = ViewFields(days: 1)

    @Test func aForwarderBlockedOnASilentDaemonEndsWhenStopped() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let (client, daemon) = (fds[0], fds[1])
        defer { close(daemon) }
        let opened = Atomic<Int>(0)
        let mailbox = Mailbox<FeedNews>()
        let forwarder = FeedForwarder(view: Self.view, open: {
            opened.add(1, ordering: .sequentiallyConsistent)
            return FeedSocket(adopting: client)
        }, mailbox: mailbox)
        forwarder.start()
        // The subscription reaches the "daemon", which never answers.
        var byte: UInt8 = 0
        #expect(recv(daemon, &byte, 1, 0) == 1)
        #expect(!forwarder.join(deadline: .milliseconds(200)), "it reads until stopped")
        let start = MonotonicInstant.now()
        forwarder.requestStop()
        #expect(forwarder.join(deadline: .seconds(1)))
        #expect(MonotonicInstant.now() - start < .milliseconds(500))
        #expect(opened.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func aForwarderWaitingToReconnectEndsWhenStopped() throws {
        let mailbox = Mailbox<FeedNews>()
        let forwarder = FeedForwarder(view: Self.view, open: {
            throw FeedSocket.Unavailable(description: "no daemon")
        }, mailbox: mailbox)
        forwarder.start()
        // Past the first attempts, into the 2 s backoff.
        usleep(700_000)
        #expect(mailbox.takeAll().contains { if case .lost = $0 { return true } else { return false } })
        let start = MonotonicInstant.now()
        forwarder.requestStop()
        #expect(forwarder.join(deadline: .seconds(1)))
        #expect(MonotonicInstant.now() - start < .milliseconds(500))
    }

    @Test func theColourReaderAsksOncePerBurstAndEndsWhenStopped() throws {
        let asked = Atomic<Int>(0)
        let mailbox = Mailbox<FeedNews>()
        let reader = CalendarColorReader(status: {
            asked.add(1, ordering: .sequentiallyConsistent)
            usleep(100_000)
            return FeedStatus(fields: ["calendar_colors": .object(["home": .string("#336699")])])
        }, mailbox: mailbox)
        reader.start()
        for _ in 0..<5 { reader.refresh() }
        usleep(500_000)
        // The first wake-up's request, and at most one more for those posted meanwhile.
        let count = asked.load(ordering: .sequentiallyConsistent)
        #expect(count >= 1 && count <= 2, "asked \(count) times")
        #expect(mailbox.takeAll().contains { if case .colors(let colors) = $0 { return colors["home"] != nil } else { return false } })
        reader.requestStop()
        #expect(reader.join(deadline: .seconds(1)))
    }
}
