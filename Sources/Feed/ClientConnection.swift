import Agenda
import Foundation

/// One client of the feed socket, owned by the event loop thread.
final class ClientConnection {
    /// A message waiting to be written.
    struct Outgoing {
        var bytes: [UInt8]
        var offset = 0
        /// Subscription data (snapshots, diffs): dropped on overflow when not yet started.
        var droppable: Bool
    }

    let fd: Int32
    let id: Int
    var readBuffer: [UInt8] = []
    var queue: [Outgoing] = []
    var queueHead = 0
    var queuedBytes = 0
    /// The subscribed view and the last seq sent for it.
    var view: View?
    var lastSeq: Int64 = 0
    /// Waiting for the view's first snapshot.
    var awaitingSnapshot = false
    /// The resync reason to send before that first snapshot (a resume that cannot be honoured).
    var pendingResync: String?
    /// Diffs were dropped: send resync and a snapshot once the queue drains.
    var needsResync = false
    /// Close once the queue is written (after line_too_long, overloaded).
    var closeAfterFlush = false
    /// `snapshot` requests of this connection the recomputer has not answered yet.
    var oneShotsWaiting = 0
    /// Last time the kernel accepted bytes from us (or the queue was empty).
    var lastDrain: Double
    /// Last time anything was queued (for heartbeats).
    var lastSent: Double
    var wantsWritable = false

    init(fd: Int32, id: Int, now: Double) {
        self.fd = fd
        self.id = id
        lastDrain = now
        lastSent = now
    }

    var hasPending: Bool { queueHead < queue.count }

    func enqueue(_ bytes: [UInt8], droppable: Bool, now: Double) {
        // The stall clock starts when data starts waiting; dropped diffs (needsResync)
        // count as waiting, so a pong or error queued meanwhile does not restart it.
        if !hasPending && !needsResync { lastDrain = now }
        queue.append(Outgoing(bytes: bytes, droppable: droppable))
        queuedBytes += bytes.count
        lastSent = now
    }

    /// Drops queued subscription data that has not started to go out.
    func dropUnstarted() {
        var kept: [Outgoing] = []
        for (i, m) in queue.enumerated() where i >= queueHead {
            if m.droppable, m.offset == 0 { queuedBytes -= m.bytes.count } else { kept.append(m) }
        }
        queue = kept
        queueHead = 0
    }

    /// Writes as much as the socket takes. Returns false when the connection broke.
    func flush(now: Double) -> Bool {
        while queueHead < queue.count {
            let remaining = queue[queueHead].bytes.count - queue[queueHead].offset
            let n = queue[queueHead].bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + queue[queueHead].offset, remaining, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { return true }
                if errno == EINTR { continue }
                return false
            }
            if n > 0 { lastDrain = now }
            queue[queueHead].offset += n
            queuedBytes -= n
            if queue[queueHead].offset == queue[queueHead].bytes.count {
                queue[queueHead].bytes = []
                queueHead += 1
            }
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        queuedBytes = 0
        lastDrain = now
        return true
    }
}
