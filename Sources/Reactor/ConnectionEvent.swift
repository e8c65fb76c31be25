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
