import Diagnostics

extension LiveSourceError: ExitStatusProviding {
    /// A source named twice or not at all: the input names something wrong (65).
    public var exitStatus: ExitStatus { .dataError }
}
