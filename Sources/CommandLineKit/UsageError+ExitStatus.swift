import Diagnostics

extension UsageError: ExitStatusProviding {
    /// 64: the command line is wrong.
    public var exitStatus: ExitStatus { .usage }
}
