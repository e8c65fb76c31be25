import Diagnostics

extension StoreError: ExitStatusProviding {
    /// A bad calendar name comes from the command line (64); the rest is the data (65).
    public var exitStatus: ExitStatus {
        if case .invalidCalendarName = self { return .usage }
        return .dataError
    }
}
