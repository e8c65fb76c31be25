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
