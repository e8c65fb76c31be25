/// Exit statuses of SPEC.md section 5 (sysexits.h).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case ioError = 74
}

/// An error that says its own exit status. Each module conforms its own error types
/// (in `Type+ExitStatus.swift` files), so the command-line layer needs to import no
/// domain module to map an error to an exit status (`ExitStatus.for`).
public protocol ExitStatusProviding: Error {
    /// The status a program exits with when this error ends it.
    var exitStatus: ExitStatus { get }
}
