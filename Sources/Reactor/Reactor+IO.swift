import Glibc

/// Accepting, reading and writing on the reactor's descriptors: non-blocking always,
/// `EINTR` retried, would-block ends the call quietly, every other failure reported.
extension Reactor {
    /// What one read of a connection gave.
    public enum Received {
        /// Bytes (a slice of the reactor's buffer: valid until the next read).
        case bytes(ArraySlice<UInt8>)
        /// The peer closed its side.
        case end
        /// The read failed: the connection is gone.
        case failed(ReactorError)
    }

    /// What one `write` did.
    public struct Written: Equatable, Sendable {
        /// Bytes the kernel took.
        public var count: Int
        /// The write failed: the connection is gone.
        public var broken: Bool
        /// The kernel took the whole of a chunk `stopAfter` marked, and the call stopped there.
        public var stoppedAfterMark: Bool
    }

    /// Queued chunks per `sendmsg` (well under `IOV_MAX`, 1024).
    public static let maxVectors = 64

    /// Accepts the connections waiting on the listening socket watched as `listener`
    /// while `more` says so, each made non-blocking and close-on-exec (and given a
    /// `sendBuffer` of that many bytes when asked) and handed to `accepted`, which adopts
    /// it. At the descriptor limit (`EMFILE`, `ENFILE`) the listener is no longer watched
    /// until `resumeListening` (each tick): level-triggered, it would otherwise wake the
    /// loop at once, again and again, while nothing can be accepted. The failure is thrown
    /// for the log, after the connections accepted before it.
    public func acceptPending(on listener: Int, sendBuffer: Int32? = nil, while more: () -> Bool = { true },
                              _ accepted: (Int32) -> Void) throws(ReactorError) {
        guard let listenFD = descriptor(listener) else { return }
        while more() {
            let fd: Int32
            do {
                fd = try ReactorError.check(accept(listenFD, nil, nil), "accept")
            } catch {
                if error.code == EINTR { continue }
                if error.code == EAGAIN || error.code == EWOULDBLOCK { return }
                if error.isDescriptorLimit, (try? setInterest(.none, for: listener)) != nil { pausedListener = listener }
                throw error
            }
            do {
                try ReactorError.check(fcntl(fd, F_SETFL, try ReactorError.check(fcntl(fd, F_GETFL), "fcntl(F_GETFL)") | O_NONBLOCK), "fcntl(O_NONBLOCK)")
                try ReactorError.check(fcntl(fd, F_SETFD, FD_CLOEXEC), "fcntl(FD_CLOEXEC)")
                if var size = sendBuffer {
                    try ReactorError.check(setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)), "setsockopt(SO_SNDBUF)")
                }
            } catch {
                Glibc.close(fd)
                throw error
            }
            accepted(fd)
        }
    }

    /// Watches again, for reading, a listener `acceptPending` stopped watching at the
    /// descriptor limit (connections closed since may have made room).
    public func resumeListening() {
        guard let listener = pausedListener else { return }
        if (try? setInterest(.readable, for: listener)) != nil { pausedListener = nil }
    }

    /// Whether a listener waits for `resumeListening`.
    public var listeningPaused: Bool { pausedListener != nil }

    /// Reads connection `id` up to `rounds` times (each up to the reactor's read size),
    /// handing each result to `body`, which says whether to read on. Bounded, so that a
    /// peer that writes as fast as it can gets its turn like every other one instead of
    /// keeping the loop to itself. Stops quietly when nothing more is there or `id` is
    /// closed meanwhile.
    public func read(_ id: Int, rounds: Int, _ body: (Received) -> Bool) {
        var round = 0
        while round < rounds, let fd = descriptor(id) {
            let n: Int
            do {
                n = try ReactorError.check(readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }, "recv")
            } catch {
                if error.code == EINTR { continue }
                if error.code != EAGAIN && error.code != EWOULDBLOCK { _ = body(.failed(error)) }
                return
            }
            round += 1
            guard n > 0 else { _ = body(.end); return }
            guard body(.bytes(readBuffer[0..<n])) else { return }
        }
    }

    /// Writes queued chunks to connection `id` (nil when it is not watched): `count`
    /// chunks, `chunk(i)` the `i`th, the first from byte `offset` on. One `sendmsg` per
    /// `maxVectors` chunks, pointing into the chunks' own storage (shared bytes are never
    /// copied per connection); more only while the kernel takes all it is given. It
    /// stops after a chunk `stopAfter` marks, when the kernel took all of it.
    public func write(_ id: Int, count: Int, from offset: Int, chunk: (Int) -> [UInt8],
                      stopAfter: (Int) -> Bool = { _ in false }) -> Written? {
        guard let fd = descriptor(id) else { return nil }
        return Self.send(fd: fd, count: count, from: offset, chunk: chunk, stopAfter: stopAfter, vectors: &vectors)
    }

    /// `write` on a descriptor, with the caller's vector buffer: what a `WriterPool`
    /// thread runs for each job of a batch.
    static func send(fd: Int32, count: Int, from offset: Int, chunk: (Int) -> [UInt8], stopAfter: (Int) -> Bool,
                     vectors: inout [iovec]) -> Written {
        var written = Written(count: 0, broken: false, stoppedAfterMark: false)
        var next = 0
        var offset = offset
        while next < count {
            var end = min(count, next + Self.maxVectors)
            if let cut = (next..<end).first(where: stopAfter) { end = cut + 1 }
            vectors.removeAll(keepingCapacity: true)
            let n: Int
            do {
                n = try ReactorError.check(Self.withVectors(next..<end, first: offset, chunk: chunk, into: &vectors) { iov in
                    // One vector (a diff, a heartbeat): `send` spares the kernel the vector's copy.
                    if iov.count == 1 { return Glibc.send(fd, iov[0].iov_base, iov[0].iov_len, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                    var header = msghdr()
                    header.msg_iov = UnsafeMutablePointer(mutating: iov.baseAddress)
                    header.msg_iovlen = iov.count
                    return sendmsg(fd, &header, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }, "sendmsg")
            } catch {
                if error.code == EINTR { continue }
                written.broken = error.code != EAGAIN && error.code != EWOULDBLOCK
                return written
            }
            written.count += n
            // Advance over what the kernel took.
            var left = n + offset
            offset = 0
            while next < end {
                let size = chunk(next).count
                guard left >= size else { break }
                left -= size
                next += 1
            }
            if next < end {
                return written // the socket is full part-way through a chunk
            }
            if stopAfter(end - 1) {
                written.stoppedAfterMark = true
                return written
            }
        }
        return written
    }

    /// Calls `body` with an iovec per chunk (the first from `first`), each pointing into
    /// the chunk's own storage, which stays valid for the whole call because every
    /// `withUnsafeBytes` is still open when `body` runs.
    private static func withVectors(_ chunks: Range<Int>, first: Int, chunk: (Int) -> [UInt8], into vectors: inout [iovec],
                                    _ body: (UnsafeBufferPointer<iovec>) -> Int) -> Int {
        guard let index = chunks.first else { return vectors.withUnsafeBufferPointer(body) }
        return chunk(index).withUnsafeBytes { raw in
            let skip = vectors.isEmpty ? first : 0
            if raw.count > skip {
                vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip), iov_len: raw.count - skip))
            }
            return withVectors(chunks.dropFirst(), first: first, chunk: chunk, into: &vectors, body)
        }
    }
}
