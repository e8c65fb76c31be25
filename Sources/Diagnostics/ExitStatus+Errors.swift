import Foundation

extension ExitStatus {
    /// The exit status for `error` (docs/data-model.md), decided here alone, by the
    /// error's type, for `eventctl`, `eventd` and `eventd-web`: what the error says of
    /// itself (`ExitStatusProviding`), then the system's errors, else 70.
    public static func `for`(_ error: any Error) -> ExitStatus {
        switch error {
        case let error as any ExitStatusProviding: return error.exitStatus
        case is POSIXError: return .ioError
        default: return fileStatus(error) ?? .software
        }
    }

    /// Whether `error` is one a program expects (it says its own status, or it is a
    /// system error with a status of its own), rather than a bug: 70 from anything
    /// else is an internal error.
    public static func isExpected(_ error: any Error) -> Bool {
        error is any ExitStatusProviding || ExitStatus.for(error) != .software
    }

    /// Foundation's file errors: missing or unreadable input 66, other file I/O 74.
    /// (Checked by domain: on Linux any NSError casts to CocoaError.)
    private static func fileStatus(_ error: any Error) -> ExitStatus? {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile, .fileReadNoPermission: return .noInput
        case .fileReadUnknown, .fileWriteUnknown, .fileWriteNoPermission, .fileWriteOutOfSpace, .fileWriteVolumeReadOnly: return .ioError
        default: return nil
        }
    }
}
