import Diagnostics

extension ImportError: ExitStatusProviding {
    /// A bad calendar name comes from the command line (64); the rest is the input (65).
    public var exitStatus: ExitStatus {
        if case .invalidCalendarName = self { return .usage }
        return .dataError
    }
}
