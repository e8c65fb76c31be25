import Foundation
import Synchronization
import Testing
import Threads

@Suite(.timeLimit(.minutes(1)))
struct ServiceThreadTests {
    @Test func postsReachTheThreadInOrderAndAStopEndsIt() {
        let seen = Mutex<[Int]>([])
        let thread = ServiceThread<Int>(name: "test-inbox") { thread in
            while !thread.isStopRequested {
                let messages = thread.take(waitingAtMost: .seconds(10))
                seen.withLock { $0 += messages }
            }
        }
        for n in 1...5 { thread.post(n) }
        let until = MonotonicInstant.now() + .seconds(5)
        while seen.withLock({ $0.count }) < 5, MonotonicInstant.now() < until { usleep(1_000) }
        #expect(seen.withLock { $0 } == [1, 2, 3, 4, 5])
        #expect(!thread.hasEnded)
        let start = MonotonicInstant.now()
        thread.requestStop()
        #expect(thread.join(deadline: .seconds(5)))
        // The stop woke the 10 s wait.
        #expect(MonotonicInstant.now() - start < .seconds(1))
        #expect(thread.hasEnded)
        #expect(thread.join(deadline: .zero), "a second join still sees the end")
    }

    @Test func joinWaitsNoLongerThanItsDeadline() {
        let release = Atomic<Bool>(false)
        let thread = ServiceThread<Never>(name: "test-stuck") { _ in
            while !release.load(ordering: .sequentiallyConsistent) { usleep(5_000) }
        }
        thread.requestStop()
        let start = MonotonicInstant.now()
        #expect(!thread.join(deadline: .milliseconds(150)))
        let took = MonotonicInstant.now() - start
        #expect(took >= .milliseconds(140) && took < .seconds(1), "took \(took)")
        release.store(true, ordering: .sequentiallyConsistent)
        #expect(thread.join(deadline: .seconds(5)))
    }

    @Test func aPauseEndsEarlyOnAStopButNotOnAPost() {
        let paused = Mutex<[Bool]>([])
        let thread = ServiceThread<Int>(name: "test-pause") { thread in
            let first = thread.pause(.milliseconds(100))
            paused.withLock { $0.append(first) }
            let second = thread.pause(.seconds(30))
            paused.withLock { $0.append(second) }
        }
        thread.post(1)
        usleep(300_000)
        #expect(paused.withLock { $0 } == [true])
        thread.requestStop()
        #expect(thread.join(deadline: .seconds(2)))
        #expect(paused.withLock { $0 } == [true, false])
    }

    @Test func aStopInterruptsTheRegisteredBlockingCall() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let (mine, theirs) = (fds[0], fds[1])
        defer { close(mine); close(theirs) }
        let read = Mutex<Int?>(nil)
        let thread = ServiceThread<Never>(name: "test-read") { thread in
            let n = thread.interruptible({ shutdown(mine, Int32(SHUT_RDWR)) }) { () -> Int in
                var byte: UInt8 = 0
                return recv(mine, &byte, 1, 0)
            }
            read.withLock { $0 = n }
        }
        usleep(100_000)
        #expect(!thread.hasEnded, "the read blocks")
        thread.requestStop()
        #expect(thread.join(deadline: .seconds(2)))
        #expect(read.withLock { $0 } == 0, "the shut socket read as its end")
    }

    @Test func aStopBeforeTheCallIsRegisteredStillInterruptsIt() {
        let interrupted = Atomic<Bool>(false)
        let gate = DispatchSemaphore(value: 0)
        let thread = ServiceThread<Never>(name: "test-early") { thread in
            gate.wait()
            thread.interruptible({ interrupted.store(true, ordering: .sequentiallyConsistent) }) {}
        }
        thread.requestStop()
        gate.signal()
        #expect(thread.join(deadline: .seconds(2)))
        let ran = interrupted.load(ordering: .sequentiallyConsistent)
        #expect(ran)
    }

    @Test func aThreadWithAWakeOfItsOwnIsWokenThroughItAndStillPauses() throws {
        let pipe = try WakePipe()
        let seen = Mutex<[Int]>([])
        let thread = ServiceThread<Int>(name: "test-wake", wake: { pipe.wake() }) { thread in
            while !thread.isStopRequested {
                var descriptor = pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 10_000)
                pipe.drain()
                let messages = thread.takeAll()
                seen.withLock { $0 += messages }
            }
            // After the stop, a pause returns at once.
            #expect(!thread.pause(.seconds(30)))
        }
        thread.post(7)
        let until = MonotonicInstant.now() + .seconds(5)
        while seen.withLock({ $0 }).isEmpty, MonotonicInstant.now() < until { usleep(1_000) }
        #expect(seen.withLock { $0 } == [7])
        thread.requestStop()
        #expect(thread.join(deadline: .seconds(2)))
    }
}
