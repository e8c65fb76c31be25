import Diagnostics

extension StaticAssets.LoadError: ExitStatusProviding {
    /// 66: the dashboard's files are missing.
    public var exitStatus: ExitStatus { .noInput }
}
