import Diagnostics

// Kept apart from FeedConnector.swift: the type is moving, and its conformance with it.
extension FeedConnector.Unavailable: ExitStatusProviding {
    /// 69: eventd's socket cannot be reached.
    public var exitStatus: ExitStatus { .unavailable }
}
