import CLinux
import Glibc

/// One readiness report of `Reactor.wait`.
public struct ReadyEvent: Sendable {
    /// The id the descriptor is watched under.
    public var id: Int
    /// Reading would not block (data, or the peer closed its side).
    public var readable: Bool
    /// Writing would not block.
    public var writable: Bool
    /// Hang-up or error: reading will tell which.
    public var broken: Bool
}

/// What one `Reactor.wait` found: a view of the reactor's own event array, so a wake-up
/// allocates nothing. Valid until the next `wait`.
public struct ReadyEvents: RandomAccessCollection {
    let buffer: [epoll_event]
    /// How many descriptors are ready.
    public let count: Int

    init(buffer: [epoll_event], count: Int) {
        self.buffer = buffer
        self.count = count
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// `count`.
    public var endIndex: Int { count }

    /// The `index`th report.
    public subscript(index: Int) -> ReadyEvent {
        let e = buffer[index]
        return ReadyEvent(id: Int(Int64(bitPattern: e.data.u64)), readable: e.events & (eventd_epollin | eventd_epollrdhup) != 0,
                          writable: e.events & eventd_epollout != 0, broken: e.events & (eventd_epollerr | eventd_epollhup) != 0)
    }
}

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

/// What happens to one connection, as a loop's state machine sees it: the events the
/// feed's hub and the web gateway share (each wraps them in its own event type, beside
/// the events of its own). The loop turns the reactor's readiness and bytes into these.
public enum ConnectionEvent: Sendable {
    /// A peer connected.
    case accepted(Int)
    /// Bytes arrived.
    case received(Int, ArraySlice<UInt8>)
    /// The peer closed its side (end of file).
    case peerClosed(Int)
    /// The kernel took `count` bytes of the connection's queue (0: the socket is
    /// writable but nothing was waiting, or it took nothing).
    case wrote(Int, count: Int)
    /// Reading or writing failed: the connection is gone.
    case failed(Int, reason: String)
}

/// A state machine that takes `ConnectionEvent`s: one method per case, so that the
/// dispatch is written once (`dispatch`).
public protocol ConnectionEventHandler {
    /// A peer connected as `id`.
    mutating func accept(_ id: Int)
    /// `bytes` arrived from `id`.
    mutating func receive(_ bytes: ArraySlice<UInt8>, from id: Int)
    /// `id`'s peer closed its side.
    mutating func peerClosed(_ id: Int)
    /// The kernel took `count` bytes of `id`'s queue.
    mutating func wrote(_ count: Int, to id: Int)
    /// `id` is gone (`reason` for the log, nil when it ended normally).
    mutating func remove(_ id: Int, reason: String?)
}

extension ConnectionEventHandler {
    /// Hands `event` to the method for its case.
    @inlinable
    public mutating func dispatch(_ event: ConnectionEvent) {
        switch event {
        case .accepted(let id): accept(id)
        case .received(let id, let bytes): receive(bytes, from: id)
        case .peerClosed(let id): peerClosed(id)
        case .wrote(let id, let count): wrote(count, to: id)
        case .failed(let id, let reason): remove(id, reason: reason)
        }
    }
}
