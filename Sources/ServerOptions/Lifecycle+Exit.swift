import Diagnostics
import Foundation
import Threads

extension Lifecycle {
    /// Stops the services (`stopServices`) and returns once they all ended in time; the
    /// servers' one rule otherwise: past a deadline, a log line names who did not stop
    /// and the process exits 70; a second SIGTERM or SIGINT ends it at once, as that
    /// signal would have.
    public func stopServicesOrExit(log: Logger) {
        switch stopServices(warn: { log.warning($0) }) {
        case .stopped:
            return
        case .overdue(let names):
            log.error("not stopped in time (within \(shutdownDeadline) in all): \(names.joined(separator: ", ")); exiting")
            exit(ExitStatus.software.rawValue)
        case .interrupted(let signal):
            log.warning("received \(Lifecycle.name(of: signal)) again while stopping; exiting at once")
            Lifecycle.die(of: signal)
        }
    }
}
