import CLinux
import Glibc

/// One epoll instance: the feed loop's readiness source. One owner of the descriptor,
/// closed in `deinit`.
///
/// Level-triggered, on purpose: the hub decides when a connection is read (it stops
/// reading a client that does not read its answers) and when it is written (only while
/// output waits), and the loop mirrors that in each descriptor's interest. A waiting
/// costs nothing per idle connection (unlike `poll`, which the kernel walks in full on
/// every call); with edge triggering the loop would have to remember readiness it chose
/// not to act on, which is the hub's state, not the loop's.
final class EventPoller {
    /// What a descriptor is watched for.
    struct Interest: Equatable {
        var read: Bool
        var write: Bool

        var mask: UInt32 {
            (read ? eventd_epollin | eventd_epollrdhup : 0) | (write ? eventd_epollout : 0)
        }
    }

    /// One readiness report: the token given at `add`, and what happened.
    struct Event {
        var token: UInt64
        var readable: Bool
        var writable: Bool
        /// Hang-up or error: reading will tell which.
        var broken: Bool
    }

    private let fd: Int32
    private var buffer: [epoll_event]

    /// An epoll instance that reports at most `batch` events per `wait`.
    init(batch: Int = 512) throws {
        fd = epoll_create1(eventd_epoll_cloexec)
        guard fd >= 0 else { throw SocketSetupError(description: "epoll_create1: \(String(cString: strerror(errno)))") }
        buffer = [epoll_event](repeating: epoll_event(), count: batch)
    }

    deinit { close(fd) }

    /// Watches `descriptor`; its events carry `token`.
    func add(_ descriptor: Int32, token: UInt64, interest: Interest) {
        control(EPOLL_CTL_ADD, descriptor, token: token, interest: interest)
    }

    /// Changes what `descriptor` is watched for.
    func modify(_ descriptor: Int32, token: UInt64, interest: Interest) {
        control(EPOLL_CTL_MOD, descriptor, token: token, interest: interest)
    }

    /// Stops watching `descriptor` (closing it would too; this is for descriptors kept open).
    func remove(_ descriptor: Int32) {
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, nil)
    }

    private func control(_ operation: Int32, _ descriptor: Int32, token: UInt64, interest: Interest) {
        var event = epoll_event()
        event.events = interest.mask
        event.data.u64 = token
        // Fails only for a descriptor that is not open or not pollable: a bug, not a
        // condition to recover from; the connection then simply never becomes ready.
        _ = epoll_ctl(fd, operation, descriptor, &event)
    }

    /// Waits up to `timeout` seconds (rounded up to a millisecond) and returns the events.
    func wait(timeout: Double) -> [Event] {
        let milliseconds = Int32(min(Double(Int32.max), (max(0, timeout) * 1000).rounded(.up)))
        let count = buffer.withUnsafeMutableBufferPointer { epoll_wait(fd, $0.baseAddress, Int32($0.count), milliseconds) }
        guard count > 0 else { return [] }
        return buffer[0..<Int(count)].map { e in
            Event(token: e.data.u64, readable: e.events & (eventd_epollin | eventd_epollrdhup) != 0,
                  writable: e.events & eventd_epollout != 0, broken: e.events & (eventd_epollerr | eventd_epollhup) != 0)
        }
    }
}
