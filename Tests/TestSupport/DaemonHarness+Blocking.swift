import Foundation
import CanonicalJSON
#if canImport(Glibc)
import Glibc
#endif

// The harness for tests that run their bodies on threads of their own and block
// (ReliabilityTests): the same daemon life cycle, waiting on the calling thread.
extension DaemonHarness {
    /// `start`, waiting on the calling thread until the daemon logs that it listens.
    public func startBlocking(_ extraArguments: [String] = [], environment extra: [String: String] = [:],
                              timeout: Double = 10) throws {
        let launch = try launch(extraArguments, environment: extra)
        let deadline = monotonicNow() + timeout
        while try !launch.isListening() {
            if monotonicNow() >= deadline { throw HarnessError("eventd did not listen within \(timeout) s; log:\n\(log)") }
            sleepSeconds(0.01)
        }
    }

    /// `stop`, waiting on the calling thread: SIGTERM, then SIGKILL when it has not
    /// exited after `timeout`. Returns how it ended (nil: it had to be killed).
    @discardableResult
    public func stopBlocking(timeout: Double = 5) -> ProcessExit? {
        guard let current = pid else { return lastExit }
        kill(current, SIGTERM)
        return stopped(current, exit: ChildProcess.waitBlocking(current, timeout: timeout))
    }

    /// One request on a fresh connection, blocking: the first answer that is not a heartbeat.
    public func requestBlocking(_ request: JSONValue, timeout: Double = 10) throws -> JSONValue {
        let client = try FeedClient.connectBlocking(path: socketPath, timeout: timeout)
        defer { client.close() }
        return try client.requestBlocking(request, timeout: timeout)
    }
}
