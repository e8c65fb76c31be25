import Foundation
import Agenda
import EventStore
import Feed
import ICalendar
import Support

extension ExitStatus {
    /// The exit status for `error` (SPEC.md section 5), decided here alone, by the
    /// error's type, for `eventctl` and `eventd` both.
    public static func `for`(_ error: any Error) -> ExitStatus {
        switch error {
        case is UsageError, is ViewError: return .usage
        case let failure as CommandFailure:
            switch failure {
            case .missingInput: return .noInput
            case .badData: return .dataError
            case .daemonUnavailable: return .unavailable
            case .ioFailure: return .ioError
            }
        case let failure as DatabaseFailure: return .for(failure.underlying)
        case let error as SQLiteError:
            if error.isBusy || error.isIOError { return .ioError }
            return error.isNotADatabase ? .dataError : .software
        case let error as StoreError:
            if case .invalidCalendarName = error { return .usage }
            return .dataError
        case let error as ImportError:
            if case .invalidCalendarName = error { return .usage }
            return .dataError
        case is ICalendarSyntaxError: return .dataError
        case is SocketSetupError, is FeedSocket.Unavailable: return .unavailable
        case let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile:
            return .noInput
        case is CocoaError, is POSIXError: return .ioError
        default: return .software
        }
    }

    /// The one-line message for `error` (after `PROGRAM: `): the error's own text, its
    /// hint for usage errors, and "internal error" for what nothing above expected.
    public static func message(for error: any Error) -> String {
        let text: String
        if let usage = error as? UsageError {
            text = usage.line
        } else if ExitStatus.for(error) == .software, !(error is SQLiteError), !(error is DatabaseFailure) {
            text = "internal error: \(error)"
        } else {
            text = "\(error)"
        }
        // One line, always (SPEC.md section 5): messages may quote multi-line SQL or input.
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
