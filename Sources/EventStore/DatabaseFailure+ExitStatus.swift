import Diagnostics

extension DatabaseFailure: ExitStatusProviding {
    /// The status of the underlying error: the path adds words, not a class.
    public var exitStatus: ExitStatus { .for(underlying) }
}
