import Diagnostics

extension StoreError: ExitStatusProviding {
    /// A bad calendar name comes from the command line (64); the rest is the data (65).
    public var exitStatus: ExitStatus {
        switch self {
        case .invalidCalendarName, .invalidColor: return .usage
        default: return .dataError
        }
    }
}
