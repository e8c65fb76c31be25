import CLinux
import Glibc
import Threads

/// One thread's event loop: an epoll instance, the descriptors it watches under the
/// user's ids, and what each is registered for. The feed's loop and eventd-web's both
/// run on it; they keep their decisions in their pure state machines and tell the
/// reactor only which ids want to read or write.
///
/// Level-triggered, on purpose: the state machines decide when a connection is read
/// (one that does not read its answers is not) and when it is written (only while
/// output waits), and the loop mirrors that in each descriptor's interest. A wait costs
/// nothing per idle descriptor (unlike `poll`, which the kernel walks in full on every
/// call, with an array the loop rebuilds); with edge triggering the loop would have to
/// remember readiness it chose not to act on, which is the state machine's business.
///
/// Ids: connections use ids from 0 up, counted by the loop and never reused (their
/// descriptors are, so a stale report of a closed connection is recognised by its id);
/// fixed descriptors (a listening socket, a wake pipe, a timer) use negative ids.
/// The reactor is its thread's alone: nothing here is `Sendable`.
public final class Reactor {
    /// What a descriptor is watched for. Nothing (`none`) takes it out of the epoll set:
    /// the kernel reports hang-ups and errors whatever the interest, and an unread
    /// hang-up on a connection the loop does not mean to read would wake it forever.
    public struct Interest: Equatable, Sendable {
        /// Wait until reading would not block (or the peer closed its side).
        public var read: Bool
        /// Wait until the socket has room to write.
        public var write: Bool

        /// An interest in reading, writing, both or neither.
        public init(read: Bool, write: Bool) { (self.read, self.write) = (read, write) }

        /// Not watched.
        public static let none = Interest(read: false, write: false)
        /// Watched for reading only.
        public static let readable = Interest(read: true, write: false)

        var mask: UInt32 { (read ? eventd_epollin | eventd_epollrdhup : 0) | (write ? eventd_epollout : 0) }
    }

    struct Descriptor {
        var fd: Int32
        /// What epoll was last told (`none`: not in the epoll set).
        var registered: Interest
        /// Closed by the reactor (connections), or the user's to close (fixed descriptors).
        var owned: Bool
        /// The last batch (`claimForBatch`) that took this descriptor.
        var batch: UInt64 = 0
    }

    private let epollFD: Int32
    private var buffer: [epoll_event]
    private var descriptors = ConnectionTable<Descriptor>()
    /// Connections whose interest may have changed since it was last registered.
    private var dirty: [Int] = []
    /// Connections registered without read interest (held back): `recheckHeldBack` marks
    /// them dirty, since a state machine may let them read again without their output
    /// changing.
    private var heldBack: Set<Int> = []
    /// The wake pipe, when one is watched, and its id.
    private var wakePipe: (pipe: WakePipe, id: Int)?
    /// The one buffer every read goes into (`read` hands out slices of it).
    var readBuffer: [UInt8]
    /// `sendmsg`'s vectors, kept between calls (an allocation per heartbeat showed in perf).
    var vectors: [iovec] = []
    /// The listening socket that hit the descriptor limit, watched again by `resumeListening`.
    var pausedListener: Int?
    /// Counts batches of writes (`beginBatch`), so that a connection joins each at most once.
    private var batchStamp: UInt64 = 0

    /// A reactor that reports at most `batch` descriptors per `wait` and reads at most
    /// `readSize` bytes at a time.
    public init(batch: Int = 512, readSize: Int = 65536) throws(ReactorError) {
        epollFD = try ReactorError.check(epoll_create1(eventd_epoll_cloexec), "epoll_create1")
        buffer = [epoll_event](repeating: epoll_event(), count: batch)
        readBuffer = [UInt8](repeating: 0, count: readSize)
    }

    deinit {
        for descriptor in descriptors.values where descriptor.owned { Glibc.close(descriptor.fd) }
        Glibc.close(epollFD)
    }

    // MARK: - Descriptors

    /// Watches `fd`, which stays the caller's to close, under the (negative) `id`.
    public func watch(_ fd: Int32, as id: Int, interest: Interest) throws(ReactorError) {
        descriptors[id] = Descriptor(fd: fd, registered: .none, owned: false)
        try setInterest(interest, for: id)
    }

    /// Watches `pipe` for reading under the (negative) `id`, and empties it whenever
    /// `wait` reports it: the loop then only takes its mailbox.
    public func watch(_ pipe: WakePipe, as id: Int) throws(ReactorError) {
        try watch(pipe.readFD, as: id, interest: .readable)
        wakePipe = (pipe, id)
    }

    /// Takes `fd` (a connection) under `id`, not yet watched for anything: its interest
    /// follows at the next `updateInterests`. The reactor closes it (`close`, or deinit).
    public func adopt(_ fd: Int32, as id: Int) {
        descriptors[id] = Descriptor(fd: fd, registered: .none, owned: true)
        dirty.append(id)
        // Not registered for reading yet: held back until `updateInterests` says otherwise
        // (a connection that wants nothing at first is then rechecked like any other).
        heldBack.insert(id)
    }

    /// Starts a batch of writes: every connection may be claimed once more.
    public func beginBatch() { batchStamp &+= 1 }

    /// The descriptor of `id` the first time the current batch claims it; nil after that,
    /// or when `id` is not watched. A batch writes each queue once: two threads writing
    /// one socket would interleave its messages.
    public func claimForBatch(_ id: Int) -> Int32? {
        let stamp = batchStamp
        return descriptors.withValue(id) { descriptor -> Int32? in
            guard descriptor.batch != stamp else { return nil }
            descriptor.batch = stamp
            return descriptor.fd
        } ?? nil
    }

    /// Whether `id` is watched (a report for a closed connection is not acted on).
    public func contains(_ id: Int) -> Bool { descriptors.contains(id) }

    /// The descriptor of `id`, if it is watched.
    public func descriptor(_ id: Int) -> Int32? { descriptors.withValue(id) { $0.fd } }

    /// Every id watched, in no particular order.
    public var ids: [Int] { descriptors.keys }

    /// Forgets `id`: closes its descriptor when the reactor owns it (closing takes it out
    /// of the epoll set), stops watching it otherwise.
    public func close(_ id: Int) {
        guard let descriptor = descriptors.removeValue(forKey: id) else { return }
        heldBack.remove(id)
        if descriptor.owned {
            // (close's result is not checked: on Linux the descriptor is released whatever
            // it says, and there is nothing to retry.)
            Glibc.close(descriptor.fd)
        } else if descriptor.registered != .none {
            _ = try? control(EPOLL_CTL_DEL, descriptor.fd, id: id, interest: .none)
        }
    }

    /// Shuts down reading (`SHUT_RD`) or writing (`SHUT_WR`) of connection `id`. A
    /// failure means the peer is gone, which the next read tells.
    public func shutdown(_ id: Int, reading: Bool) {
        guard let fd = descriptor(id) else { return }
        _ = try? ReactorError.check(Glibc.shutdown(fd, Int32(reading ? SHUT_RD : SHUT_WR)), "shutdown")
    }

    // MARK: - Interests

    /// Registers `interest` for `id` now, if it differs from what epoll was last told.
    public func setInterest(_ interest: Interest, for id: Int) throws(ReactorError) {
        guard let (fd, registered) = descriptors.withValue(id, { ($0.fd, $0.registered) }), registered != interest else { return }
        try register(interest, for: id, fd: fd, replacing: registered)
    }

    private func register(_ interest: Interest, for id: Int, fd: Int32, replacing registered: Interest) throws(ReactorError) {
        if interest == .none {
            try control(EPOLL_CTL_DEL, fd, id: id, interest: interest)
        } else {
            try control(registered == .none ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, id: id, interest: interest)
        }
        descriptors[live: id].registered = interest
    }

    /// Notes that the interest of connection `id` may have changed.
    public func markDirty(_ id: Int) { dirty.append(id) }

    /// Marks every connection dirty.
    public func markAllDirty() { dirty.append(contentsOf: descriptors.keys.lazy.filter { $0 >= 0 }) }

    /// Marks dirty the connections registered without read interest.
    public func recheckHeldBack() { dirty.append(contentsOf: heldBack) }

    /// Tells epoll what changed in the interests of the connections marked dirty since
    /// the last call: `wanted` says what each wants now. A registration the kernel
    /// refuses goes to `failed` (the connection cannot be served).
    public func updateInterests(_ wanted: (Int) -> Interest, failed: (Int, ReactorError) -> Void) {
        var i = 0
        while i < dirty.count {
            let id = dirty[i]
            i += 1
            // (One lookup per dirty id, and none of the rest unless the interest changed:
            // a diff to 10,000 subscribers marks each of them.)
            guard id >= 0, let (fd, registered) = descriptors.withValue(id, { ($0.fd, $0.registered) }) else { continue }
            let interest = wanted(id)
            guard interest != registered else { continue }
            do {
                try register(interest, for: id, fd: fd, replacing: registered)
            } catch {
                failed(id, error)
                continue
            }
            if interest.read { heldBack.remove(id) } else { heldBack.insert(id) }
        }
        dirty.removeAll(keepingCapacity: true)
    }

    private func control(_ operation: Int32, _ fd: Int32, id: Int, interest: Interest) throws(ReactorError) {
        var event = epoll_event()
        event.events = interest.mask
        event.data.u64 = UInt64(bitPattern: Int64(id))
        let name = operation == EPOLL_CTL_ADD ? "ADD" : operation == EPOLL_CTL_MOD ? "MOD" : "DEL"
        try ReactorError.check(epoll_ctl(epollFD, operation, fd, &event), "epoll_ctl(\(name)) of descriptor \(fd)")
    }

    // MARK: - Waiting

    /// Waits until a watched descriptor is ready or the monotonic clock reaches
    /// `deadline` (`now` is that clock's reading; the wait is rounded up to a
    /// millisecond, so a deadline is never woken for early). A signal ends the wait
    /// with nothing ready.
    public func wait(until deadline: MonotonicInstant, now: MonotonicInstant) throws(ReactorError) -> ReadyEvents {
        let milliseconds = (deadline - now).pollMilliseconds
        let count = buffer.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress, Int32($0.count), milliseconds) }
        if count < 0 && errno == EINTR { return ReadyEvents(buffer: buffer, count: 0) }
        let ready = ReadyEvents(buffer: buffer, count: Int(try ReactorError.check(count, "epoll_wait")))
        if let (pipe, id) = wakePipe, ready.contains(where: { $0.id == id }) { pipe.drain() }
        return ready
    }

    /// Performs `effects` in order, and after them those of the events they cause:
    /// `perform` carries out one effect and returns the state machine's answer to it.
    @inlinable
    public static func carryOut<Effect>(_ effects: [Effect], _ perform: (Effect) -> [Effect]) {
        var queue = effects
        var i = 0
        while i < queue.count {
            queue.append(contentsOf: perform(queue[i]))
            i += 1
        }
    }
}

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
