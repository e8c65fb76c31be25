import Foundation
import Glibc
import Reactor
import Testing
import TestSupport
import Threads

/// The reactor on real descriptors: socket pairs, a pipe, a listening Unix socket.
@Suite struct ReactorTests {
    /// Waits at most `seconds` and returns the ids reported.
    static func ready(_ reactor: Reactor, within wait: Duration = .milliseconds(500)) throws -> [Int] {
        let now = MonotonicInstant.now()
        return try reactor.wait(until: now + wait, now: now).map(\.id)
    }

    static func send(_ fd: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    @Test func reportsReadinessUnderTheConnectionsId() throws {
        let reactor = try Reactor()
        let (mine, peer) = try UnixSocket.pair()
        defer { close(peer) }
        reactor.adopt(mine, as: 7)
        reactor.updateInterests({ _ in .readable }, failed: { _, error in Issue.record("\(error)") })
        #expect(try Self.ready(reactor, within: .milliseconds(20)).isEmpty)
        Self.send(peer, "hello")
        let events = try { let now = MonotonicInstant.now(); return try reactor.wait(until: now + .seconds(1), now: now) }()
        #expect(events.count == 1)
        #expect(events.first?.id == 7 && events.first?.readable == true && events.first?.writable == false)
        var got: [String] = []
        reactor.read(7, rounds: 4) { received in
            if case .bytes(let bytes) = received { got.append(String(decoding: bytes, as: UTF8.self)) }
            return true
        }
        #expect(got == ["hello"])
    }

    @Test func followsInterestChangesAndIgnoresAHangUpWithoutInterest() throws {
        let reactor = try Reactor()
        let (mine, peer) = try UnixSocket.pair()
        reactor.adopt(mine, as: 1)
        var wanted = Reactor.Interest(read: false, write: true)
        reactor.updateInterests({ _ in wanted }, failed: { _, _ in })
        #expect(try Self.ready(reactor) == [1])
        // Nothing wanted: out of the epoll set, so even a hang-up does not wake the loop.
        wanted = .none
        reactor.markDirty(1)
        reactor.updateInterests({ _ in wanted }, failed: { _, _ in })
        close(peer)
        #expect(try Self.ready(reactor, within: .milliseconds(50)).isEmpty)
        // Held back (no read interest): rechecked on request, then read again.
        wanted = .readable
        reactor.recheckHeldBack()
        reactor.updateInterests({ _ in wanted }, failed: { _, _ in })
        #expect(try Self.ready(reactor) == [1])
        var ended = false
        reactor.read(1, rounds: 4) { received in
            if case .end = received { ended = true }
            return true
        }
        #expect(ended)
        reactor.close(1)
        #expect(!reactor.contains(1) && reactor.descriptor(1) == nil)
    }

    @Test func aConnectionThatWantsNothingAtFirstIsRecheckedWithTheHeldBack() throws {
        let reactor = try Reactor()
        let (mine, peer) = try UnixSocket.pair()
        defer { close(peer) }
        reactor.adopt(mine, as: 2)
        var asked: [Int] = []
        reactor.updateInterests({ asked.append($0); return .none }, failed: { _, _ in })
        reactor.updateInterests({ asked.append($0); return .none }, failed: { _, _ in })
        #expect(asked == [2])
        reactor.recheckHeldBack()
        reactor.updateInterests({ asked.append($0); return .readable }, failed: { _, _ in })
        #expect(asked == [2, 2])
        // Reading now: no longer held back.
        reactor.recheckHeldBack()
        reactor.updateInterests({ asked.append($0); return .readable }, failed: { _, _ in })
        #expect(asked == [2, 2])
    }

    @Test func waitsUntilTheDeadline() throws {
        let reactor = try Reactor()
        let started = MonotonicInstant.now()
        #expect(try reactor.wait(until: started + .milliseconds(80), now: started).isEmpty)
        let waited = MonotonicInstant.now() - started
        #expect(waited >= .milliseconds(79) && waited < .seconds(1), "waited \(waited)")
        // A deadline already past: no wait at all.
        let now = MonotonicInstant.now()
        #expect(try reactor.wait(until: MonotonicInstant(sinceStart: now.sinceStart - .seconds(5)), now: now).isEmpty)
        #expect(MonotonicInstant.now() - now < .milliseconds(50))
    }

    @Test func aWakeFromAnotherThreadEndsTheWaitAndIsDrained() throws {
        let reactor = try Reactor()
        let pipe = try WakePipe()
        try reactor.watch(pipe, as: -1)
        let waker = Thread { sleepSeconds(0.05); pipe.wake() }
        let started = monotonicNow()
        waker.start()
        #expect(try Self.ready(reactor, within: .seconds(5)) == [-1])
        #expect(monotonicNow() - started < 2)
        // Several wakes before a wait: one report, the pipe emptied, the next wait sleeps.
        for _ in 0..<3 { pipe.wake() }
        #expect(try Self.ready(reactor) == [-1])
        #expect(try Self.ready(reactor, within: .milliseconds(50)).isEmpty)
    }

    @Test func acceptsEveryWaitingConnection() throws {
        let directory = try makeTemporaryDirectory("reactor")
        let path = directory + "/listen.sock"
        let listener = try UnixSocket.listen(path)
        defer { close(listener); unlink(path); rmdir(directory) }
        let reactor = try Reactor()
        try reactor.watch(listener, as: -2, interest: .readable)
        let clients = try (0..<3).map { _ in try UnixSocket.connect(path) }
        defer { clients.forEach { close($0) } }
        #expect(try Self.ready(reactor) == [-2])
        var accepted: [Int32] = []
        try reactor.acceptPending(on: -2, sendBuffer: 64 * 1024) { fd in
            accepted.append(fd)
            reactor.adopt(fd, as: accepted.count)
        }
        #expect(accepted.count == 3)
        #expect(accepted.allSatisfy { fcntl($0, F_GETFL) & O_NONBLOCK != 0 && fcntl($0, F_GETFD) & FD_CLOEXEC != 0 })
        #expect(!reactor.listeningPaused)
        // `more` stops it: nothing accepted, nothing lost.
        _ = try UnixSocket.connect(path)
        try reactor.acceptPending(on: -2, while: { false }) { _ in Issue.record("accepted") }
        #expect(try Self.ready(reactor) == [-2])
    }

    @Test func writesWhatTheSocketTakesAndGoesOnFromTheOffset() throws {
        let reactor = try Reactor()
        let (mine, peer) = try UnixSocket.pair()
        defer { close(peer) }
        reactor.adopt(mine, as: 3)
        let chunks: [[UInt8]] = (0..<200).map { i in [UInt8](repeating: UInt8(i % 251), count: 8192 + i) }
        let total = chunks.reduce(0) { $0 + $1.count }
        var queue = chunks[...]
        var offset = 0
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var partial = false
        while !queue.isEmpty {
            let written = try #require(reactor.write(3, count: queue.count, from: offset, chunk: { queue[queue.startIndex + $0] }))
            #expect(!written.broken)
            if written.count < queue.reduce(0, { $0 + $1.count }) - offset { partial = true }
            var left = written.count + offset
            while let first = queue.first, left >= first.count { left -= first.count; queue = queue.dropFirst() }
            offset = left
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(peer, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard n > 0 else { break }
                received += buffer[0..<n]
            }
        }
        #expect(partial, "the socket pair took \(total) bytes at once: nothing partial was tested")
        #expect(received == chunks.flatMap { $0 })
    }

    @Test func stopsAfterAMarkedChunkAndReportsABrokenPeer() throws {
        let reactor = try Reactor()
        let (mine, peer) = try UnixSocket.pair()
        reactor.adopt(mine, as: 4)
        let chunks: [[UInt8]] = [Array("a".utf8), Array("bb".utf8), Array("ccc".utf8)]
        let first = reactor.write(4, count: 3, from: 0, chunk: { chunks[$0] }, stopAfter: { $0 == 1 })
        #expect(first?.count == 3 && first?.broken == false && first?.stoppedAfterMark == true)
        let rest = reactor.write(4, count: 1, from: 1, chunk: { _ in chunks[2] })
        #expect(rest?.count == 2 && rest?.broken == false && rest?.stoppedAfterMark == false)
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = buffer.withUnsafeMutableBytes { recv(peer, $0.baseAddress, $0.count, 0) }
        #expect(String(decoding: buffer[0..<n], as: UTF8.self) == "abbcc")
        close(peer)
        #expect(reactor.write(4, count: 1, from: 0, chunk: { _ in chunks[0] })?.broken == true)
        #expect(reactor.write(99, count: 1, from: 0, chunk: { _ in chunks[0] }) == nil)
    }

    @Test func aRefusedRegistrationIsReportedAsTheConnectionsFailure() throws {
        let reactor = try Reactor()
        // A regular file cannot be watched by epoll (EPERM).
        let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        reactor.adopt(fd, as: 5)
        var failures: [ReactorError] = []
        reactor.updateInterests({ _ in .readable }, failed: { _, error in failures.append(error) })
        #expect(failures.map(\.code) == [EPERM])
        #expect(failures.first?.description.hasPrefix("epoll_ctl(ADD)") == true)
    }
}
