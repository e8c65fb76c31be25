import Diagnostics

extension UnsafeDirectoryError: ExitStatusProviding {
    /// eventd refuses a squattable directory as an I/O error (74); eventctl's daemon
    /// commands report it as `CommandFailure.daemonUnavailable` instead (69).
    public var exitStatus: ExitStatus { .ioError }
}
