import Glibc
@testable import Reactor
import Testing
import TestSupport

/// `WriterPool` on real socket pairs: a batch split over threads writes each job's
/// chunks whole and in order to its own socket, with the results in job order and each
/// the same as `Reactor.write` gives for that queue alone.
@Suite struct WriterPoolTests {
    /// Everything waiting on `fd` now.
    static func drain(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return received }
            received += buffer[0..<n]
        }
    }

    @Test func aBatchOverEveryThreadReachesEachSocketWholeAndInOrder() throws {
        let pool = WriterPool(threads: 3, name: "test-writer", minimumJobsPerThread: 8)
        defer { pool.stop() }
        #expect(pool.threads == 3)
        let count = pool.minimumJobsPerThread * 3 + 7 // every thread gets a share
        let pairs = try (0..<count).map { _ in try UnixSocket.pair() }
        defer { for (a, b) in pairs { close(a); close(b) } }
        // One shared line (a diff) and, for some, an answer before it and an offset into it.
        let shared = Array("{\"type\":\"diff\",\"seq\":2}\n".utf8)
        var batch = WriteBatch(capacity: count)
        var expected: [[UInt8]] = []
        for (k, (mine, _)) in pairs.enumerated() {
            let answer = Array("{\"type\":\"pong\",\"n\":\(k)}\n".utf8)
            let chunks = k % 3 == 0 ? [answer, shared] : [shared]
            let offset = k % 5 == 0 ? 3 : 0
            batch.add(fd: mine, offset: offset, stopsAfterLast: false, count: chunks.count, chunk: { chunks[$0] })
            expected.append(Array(chunks.joined().dropFirst(offset)))
        }
        let results = pool.write(batch)
        #expect(results.count == count)
        for (k, (_, peer)) in pairs.enumerated() {
            #expect(results[k] == Reactor.Written(count: expected[k].count, broken: false, stoppedAfterMark: false), "job \(k)")
            #expect(Self.drain(peer) == expected[k], "job \(k)")
        }
        // The pool is reusable: a second batch to the same sockets, in the same order.
        let again = pool.write(batch)
        #expect(again == results)
        for (k, (_, peer)) in pairs.enumerated() { #expect(Self.drain(peer) == expected[k], "second batch, job \(k)") }
    }

    @Test func aFullSocketAStopAfterAPieceAndABrokenPeerAreEachTheirJobsAlone() throws {
        let pool = WriterPool(threads: 2, name: "test-writer", minimumJobsPerThread: 8)
        defer { pool.stop() }
        let count = pool.minimumJobsPerThread * 2
        let pairs = try (0..<count).map { _ in try UnixSocket.pair() }
        defer { for (a, b) in pairs { close(a); close(b) } }
        let big = [UInt8](repeating: 7, count: 4 << 20) // more than a socket pair takes at once
        let piece = Array("piece\n".utf8), after = Array("after\n".utf8)
        close(pairs[count - 1].1) // the last job's peer is gone
        var batch = WriteBatch()
        for (k, (mine, _)) in pairs.enumerated() {
            switch k {
            case 0: batch.add(fd: mine, offset: 0, stopsAfterLast: false, count: 1, chunk: { _ in big })
            case 1: batch.add(fd: mine, offset: 0, stopsAfterLast: true, count: 1, chunk: { _ in piece })
            default: batch.add(fd: mine, offset: 0, stopsAfterLast: false, count: 2, chunk: { [piece, after][$0] })
            }
        }
        let results = pool.write(batch)
        #expect(results[0].count > 0 && results[0].count < big.count && !results[0].broken)
        #expect(results[1] == Reactor.Written(count: piece.count, broken: false, stoppedAfterMark: true))
        #expect(results[count - 1].broken)
        for k in 2..<(count - 1) {
            #expect(results[k] == Reactor.Written(count: piece.count + after.count, broken: false, stoppedAfterMark: false))
            #expect(Self.drain(pairs[k].1) == piece + after)
        }
        #expect(Self.drain(pairs[1].1) == piece)
    }

    @Test func aBatchClaimsEachConnectionOnce() throws {
        let reactor = try Reactor()
        let (mine, peer) = try UnixSocket.pair()
        defer { close(peer) }
        reactor.adopt(mine, as: 5)
        reactor.beginBatch()
        #expect(reactor.claimForBatch(5) == mine)
        #expect(reactor.claimForBatch(5) == nil, "a second job would let two threads write one socket")
        #expect(reactor.claimForBatch(6) == nil)
        reactor.beginBatch()
        #expect(reactor.claimForBatch(5) == mine)
    }

    @Test func fewJobsStayOnTheCallingThreadAndAStoppedPoolStillWrites() throws {
        let pool = WriterPool(threads: 2, name: "test-writer", minimumJobsPerThread: 8)
        let (mine, peer) = try UnixSocket.pair()
        defer { close(mine); close(peer) }
        let line = Array("hello\n".utf8)
        var batch = WriteBatch()
        batch.add(fd: mine, offset: 0, stopsAfterLast: false, count: 1, chunk: { _ in line })
        #expect(pool.write(batch) == [Reactor.Written(count: line.count, broken: false, stoppedAfterMark: false)])
        pool.stop()
        #expect(pool.threads == 1)
        #expect(pool.write(batch).first?.count == line.count)
        #expect(Self.drain(peer) == line + line)
        #expect(WriterPool.availableCores() >= 1)
    }
}
