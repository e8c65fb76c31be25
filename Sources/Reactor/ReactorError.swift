import Glibc

/// A system call of the reactor failed: which one, and `errno`.
public struct ReactorError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The call and what it was for (`epoll_ctl(ADD)`, `accept`).
    public var operation: String
    /// `errno` after the call.
    public var code: Int32

    /// Whether the call failed for lack of descriptors (`EMFILE`, `ENFILE`): the
    /// process or the system is at its limit, not the peer at fault.
    public var isDescriptorLimit: Bool { code == EMFILE || code == ENFILE }

    /// `operation: strerror(code)`.
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }

    /// The one check every C return code of the reactor goes through: `result` itself
    /// when it is not negative, `ReactorError(operation, errno)` thrown otherwise.
    @discardableResult
    static func check<Result: BinaryInteger>(_ result: Result, _ operation: @autoclosure () -> String) throws(ReactorError) -> Result {
        guard result < 0 else { return result }
        throw ReactorError(operation: operation(), code: errno)
    }
}
