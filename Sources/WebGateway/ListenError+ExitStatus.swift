import Diagnostics

extension ListenError: ExitStatusProviding {
    /// 69: the gateway cannot listen where it was told to.
    public var exitStatus: ExitStatus { .unavailable }
}
