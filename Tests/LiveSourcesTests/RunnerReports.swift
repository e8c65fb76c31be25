import Foundation
import LiveSources
import Synchronization

/// Collects what a `SourceRunner` reports (from its threads) for a test to wait on.
final class RunnerReports: Sendable {
    private let reports = Mutex<[SourceRunner.Report]>([])

    func append(_ report: SourceRunner.Report) { reports.withLock { $0.append(report) } }

    /// The reports so far.
    var all: [SourceRunner.Report] { reports.withLock { $0 } }

    var refreshes: Int { all.filter { if case .refresh = $0 { return true }; return false }.count }

    /// The latest statuses.
    var statuses: [SourceStatus] {
        for report in all.reversed() { if case .statuses(let s) = report { return s } }
        return []
    }

    /// The answer to sync `token`, if it came.
    func synced(_ token: Int) -> [SyncReport]? {
        for report in all { if case .synced(token, let reports) = report { return reports } }
        return nil
    }

    /// Waits (polling, at most `timeout` s) until `condition` holds; returns whether it did.
    func wait(timeout: Double, _ condition: (RunnerReports) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            usleep(10_000)
        }
        return condition(self)
    }
}
