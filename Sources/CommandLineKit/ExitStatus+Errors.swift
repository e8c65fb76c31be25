import Foundation
import Agenda
import EventStore
import Feed
import FeedClientKit
import ICalendar
import LiveSources
import Diagnostics
import RuntimeDirectories
import WebGateway

extension ExitStatus {
    /// The exit status for `error` (SPEC.md section 5), decided here alone, by the
    /// error's type, for `eventctl`, `eventd` and `eventd-web`.
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
        // A source named twice or not at all: the input names something wrong.
        case is LiveSourceError: return .dataError
        case let problem as SourcePlanner.Problem:
            if case .unsupported = problem { return .usage }
            return .noInput
        case is SocketSetupError, is FeedSocket.Unavailable, is FeedSocket.UntrustedPeer,
             is ListenError, is FeedConnector.Unavailable: return .unavailable
        case is StaticAssets.LoadError: return .noInput
        // eventd refuses a squattable directory as an I/O error; eventctl's daemon
        // commands report it as `CommandFailure.daemonUnavailable` instead (69).
        case is UnsafeDirectoryError: return .ioError
        case is POSIXError: return .ioError
        default: return fileStatus(error) ?? .software
        }
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
