import Diagnostics

extension CommandFailure: ExitStatusProviding {
    /// The status of the failure's class.
    public var exitStatus: ExitStatus {
        switch self {
        case .missingInput: return .noInput
        case .badData: return .dataError
        case .daemonUnavailable: return .unavailable
        case .ioFailure: return .ioError
        }
    }
}
