import Diagnostics

extension FeedConnector.Unavailable: ExitStatusProviding {
    /// 69: eventd's socket cannot be reached.
    public var exitStatus: ExitStatus { .unavailable }
}
