import Synchronization
import Threads
@testable import Feed

/// Clocks a test steps: the monotonic one is the real one (threads wait on it); the
/// wall clock starts where the test says and moves with real time, plus every step.
final class FakeClocks: Sendable {
    private let wallOffset: Mutex<Duration>

    init(wallStart: Double) {
        wallOffset = Mutex(.seconds(wallStart) - MonotonicInstant.now().sinceStart)
    }

    var clocks: DaemonClocks {
        DaemonClocks(monotonic: { MonotonicInstant.now() },
                     wall: { [self] in WallInstant(sinceEpoch: MonotonicInstant.now().sinceStart + wallOffset.withLock { $0 }) })
    }

    /// Steps the wall clock by `seconds` (negative: back).
    func step(_ seconds: Double) { wallOffset.withLock { $0 += .seconds(seconds) } }
}
