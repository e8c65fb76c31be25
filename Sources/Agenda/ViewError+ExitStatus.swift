import Diagnostics

extension ViewError: ExitStatusProviding {
    /// 64: a view comes from the command line's options (an unknown calendar or zone).
    public var exitStatus: ExitStatus { .usage }
}
