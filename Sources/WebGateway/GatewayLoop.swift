import Diagnostics
import Glibc

/// eventd-web's I/O: one thread, `poll`, non-blocking sockets to browsers and to
/// eventd. It only moves bytes and time into `Gateway` and carries out the effects it
/// returns; every decision is the gateway's.
public final class GatewayLoop {
    private var gateway: Gateway
    private let listenFD: Int32
    private let connector: FeedConnector
    private let log: Logger
    private let monotonic: () -> Double
    private var browsers: [ClientID: Int32] = [:]
    private var upstreams: [ClientID: Int32] = [:]
    private var nextID = 1
    private var readBuffer = [UInt8](repeating: 0, count: 65536)

    /// A loop serving `gateway` on the listening socket `listenFD`.
    public init(gateway: Gateway, listenFD: Int32, log: Logger, monotonic: @escaping () -> Double = GatewayLoop.monotonicNow) {
        self.gateway = gateway
        self.listenFD = listenFD
        connector = FeedConnector(path: gateway.config.socketPath, directoryPolicy: gateway.config.socketDirectoryPolicy,
                                  trustedPeers: gateway.config.trustedPeers)
        self.log = log
        self.monotonic = monotonic
        carryOut(self.gateway.handle(.clock(httpDate: Self.httpDate()), at: monotonic()))
    }

    /// Bytes of kernel send buffer per browser socket (the kernel doubles it).
    static let socketSendBuffer: Int32 = 128 * 1024

    /// Seconds on `CLOCK_MONOTONIC`: every interval of the gateway is measured on it.
    public static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Serves until the process is stopped (SIGTERM's default action ends it; browsers
    /// reconnect by themselves).
    public func run() -> Never {
        var fds: [pollfd] = []
        var slots: [(id: ClientID, upstream: Bool)] = []
        var nextTick = monotonic() + 1
        while true {
            fds.removeAll(keepingCapacity: true)
            slots.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: gateway.acceptsConnections ? listenFD : -1, events: Int16(POLLIN), revents: 0))
            for (id, fd) in browsers {
                let interest = gateway.interest(id)
                // (Without interest the descriptor is left out: see the hang-up note below.)
                fds.append(pollfd(fd: interest.read || interest.write ? fd : -1,
                                  events: (interest.read ? Int16(POLLIN) : 0) | (interest.write ? Int16(POLLOUT) : 0), revents: 0))
                slots.append((id, false))
                if let up = upstreams[id] {
                    // Not polled at all while its browser is behind: poll reports a hang-up
                    // even without interest, and an unread hang-up would spin the loop.
                    fds.append(pollfd(fd: interest.upstreamRead ? up : -1, events: Int16(POLLIN), revents: 0))
                    slots.append((id, true))
                }
            }
            let wait = max(0, nextTick - monotonic())
            let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), Int32((wait * 1000).rounded(.up))) }
            if n > 0 {
                if fds[0].revents != 0 { acceptAll() }
                for (i, slot) in slots.enumerated() {
                    let revents = fds[i + 1].revents
                    guard revents != 0 else { continue }
                    if slot.upstream {
                        if upstreams[slot.id] != nil { readUpstream(slot.id) }
                    } else {
                        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, browsers[slot.id] != nil { readBrowser(slot.id) }
                        if revents & Int16(POLLOUT) != 0, browsers[slot.id] != nil { carryOut(writeOut(slot.id)) }
                    }
                }
            }
            if monotonic() >= nextTick {
                apply(.clock(httpDate: Self.httpDate()))
                apply(.tick)
                nextTick = monotonic() + 1
            }
        }
    }

    private func apply(_ event: GatewayEvent) { carryOut(gateway.handle(event, at: monotonic())) }

    /// Performs effects in order, and those of the events they cause after them.
    private func carryOut(_ effects: [GatewayEffect]) {
        var queue = effects
        var i = 0
        while i < queue.count {
            queue.append(contentsOf: perform(queue[i]))
            i += 1
        }
    }

    private func perform(_ effect: GatewayEffect) -> [GatewayEffect] {
        let now = monotonic()
        switch effect {
        case .flush(let id): return writeOut(id)
        case .finishWriting(let id):
            if let fd = browsers[id] { shutdown(fd, Int32(SHUT_WR)) }
        case .close(let id):
            if let fd = browsers.removeValue(forKey: id) { close(fd) }
        case .connectUpstream(let id):
            do {
                upstreams[id] = try connector.connect()
                return gateway.handle(.upstreamConnected(id), at: now)
            } catch {
                return gateway.handle(.upstreamUnavailable(id, reason: error.description), at: now)
            }
        case .sendUpstream(let id, let bytes):
            // A request line is small and the socket new: it goes whole or the
            // connection is treated as gone.
            guard let fd = upstreams[id] else { break }
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n != bytes.count {
                close(fd)
                upstreams[id] = nil
                return gateway.handle(.upstreamClosed(id), at: now)
            }
        case .closeUpstream(let id):
            if let fd = upstreams.removeValue(forKey: id) { close(fd) }
        case .log(let level, let message): log.log(level, message)
        }
        return []
    }

    // MARK: - Sockets

    private func acceptAll() {
        while gateway.acceptsConnections {
            let fd = accept(listenFD, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                // A fixed send buffer: the kernel would let a stalled browser's socket grow
                // to megabytes (TCP autotuning), beyond the gateway's own bound.
                var size = Self.socketSendBuffer
                setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            if fd < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { log.log(.warning, "accept failed: \(String(cString: strerror(errno)))") }
                return
            }
            let id = nextID
            nextID += 1
            browsers[id] = fd
            apply(.accepted(id))
        }
    }

    private func readBrowser(_ id: ClientID) {
        guard let fd = browsers[id] else { return }
        let n = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n == 0 { apply(.peerClosed(id)); return }
        if n < 0 {
            if errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK { apply(.failed(id, reason: "read error")) }
            return
        }
        apply(.received(id, readBuffer[0..<n]))
    }

    /// At most 256 KiB per wake-up, so one busy subscription cannot starve the others.
    private func readUpstream(_ id: ClientID) {
        for _ in 0..<4 {
            guard let fd = upstreams[id], gateway.interest(id).upstreamRead else { return }
            let n = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
                if let fd = upstreams.removeValue(forKey: id) { close(fd) }
                apply(.upstreamClosed(id))
                return
            }
            if n < 0 { return }
            apply(.upstreamReceived(id, readBuffer[0..<n]))
        }
    }

    /// Writes what the socket takes of the browser's queue; returns the gateway's answer.
    private func writeOut(_ id: ClientID) -> [GatewayEffect] {
        guard let fd = browsers[id], let (written, broken) = send(queueOf: id, to: fd) else { return [] }
        let event: GatewayEvent = broken ? .failed(id, reason: "write failed") : .wrote(id, count: written)
        return gateway.handle(event, at: monotonic())
    }

    /// (Its own function so that the copy of the queue is gone before the gateway changes it.)
    private func send(queueOf id: ClientID, to fd: Int32) -> (written: Int, broken: Bool)? {
        guard let queue = gateway.output(id) else { return nil }
        var written = 0
        var offset = queue.offset
        for message in queue.pending {
            while offset < message.count {
                let n = message.withUnsafeBytes { raw in
                    Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    return (written, errno != EAGAIN && errno != EWOULDBLOCK)
                }
                offset += n
                written += n
            }
            offset = 0
        }
        return (written, false)
    }

    /// Now as an HTTP `Date` (IMF-fixdate: `Tue, 01 Dec 2026 02:30:00 GMT`).
    public static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Raises the soft limit on open descriptors to the hard one: each stream holds two.
    public static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
    }
}

/// `RLIMIT_NOFILE` as the type Glibc's Swift overlay wants.
private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
