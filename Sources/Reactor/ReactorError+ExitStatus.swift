import Diagnostics

extension ReactorError: ExitStatusProviding {
    /// 69, as for the sockets the loop serves: a program that cannot poll them cannot
    /// offer its service.
    public var exitStatus: ExitStatus { .unavailable }
}
