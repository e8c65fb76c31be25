import Foundation
import Testing
import Synchronization
import TestSupport

/// Collects check failures on the test's worker thread; the async test records them
/// as issues afterwards (Swift Testing attributes issues through task-locals, which a
/// plain `Thread` does not have).
// @unchecked: the only mutable state, `failures`, is behind a Mutex.
final class Checks: @unchecked Sendable {
    struct Failure: Sendable {
        var message: String
        var location: SourceLocation
    }
    private let failures = Mutex<[Failure]>([])

    /// Records a failure unless `condition` holds; returns `condition`.
    @discardableResult
    func check(_ condition: Bool, _ message: @autoclosure () -> String,
               fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) -> Bool {
        if !condition {
            let m = message()
            print("reliability: CHECK FAILED: \(m)")
            failures.withLock {
                $0.append(Failure(message: m, location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)))
            }
        }
        return condition
    }

    func fail(_ message: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        check(false, message, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    var all: [Failure] { failures.withLock { $0 } }
    var count: Int { failures.withLock { $0.count } }
}

/// Runs a test body on its own thread (it blocks: waits for processes, polls sockets),
/// so that the cooperative pool, shared with every other test, is never tied up.
/// The sandbox (processes, mounts, temporary directory) is cleaned up whatever happens.
func runIsolated(_ name: String, timeLimit: Double = 600,
                 _ body: @escaping @Sendable (Sandbox, Checks) throws -> Void) async throws {
    let checks = Checks()
    let outcome: Result<Void, RelError> = await withCheckedContinuation { continuation in
        let thread = Thread {
            let result: Result<Void, RelError>
            do {
                let sandbox = try Sandbox(name)
                defer { sandbox.cleanUp() }
                do {
                    try body(sandbox, checks)
                    result = .success(())
                } catch {
                    print("reliability: \(name): failed with \(error); daemon logs follow")
                    sandbox.dumpLogs()
                    result = .failure(RelError("\(error)"))
                }
                if result.isSuccess, checks.count > 0 { sandbox.dumpLogs() }
            } catch {
                result = .failure(RelError("cannot set up: \(error)"))
            }
            continuation.resume(returning: result)
        }
        thread.name = "reliability-\(name)"
        thread.stackSize = 16 << 20
        thread.start()
    }
    for failure in checks.all {
        Issue.record(Comment(rawValue: failure.message), sourceLocation: failure.location)
    }
    if case .failure(let error) = outcome {
        Issue.record(Comment(rawValue: "\(name): \(error.description)"))
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { return true }; return false }
}

