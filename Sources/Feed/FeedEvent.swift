import Diagnostics
import Agenda
import LiveSources
import Reactor

/// What happens to the feed, as `FeedHub` sees it. The I/O loop turns readiness,
/// bytes and messages from other threads into these.
enum FeedEvent {
    /// Something happened to a client's connection.
    case connection(ConnectionEvent)
    /// A client connected whose peer (`SO_PEERCRED`) is eventd's own user or root: it may
    /// take one of the last `reservedClients` slots of `maxClients`.
    case ownUserConnected(Int)
    /// A message from the recomputer.
    case recomputed(RecomputeOutput)
    /// Time passed (at least once a second, and at once when the wall clock stepped).
    case tick
    /// The system's time zone changed (the zone views without `tz` get).
    case systemZoneChanged(String)
    /// A report of the live-source runner.
    case sources(SourceRunner.Report)
    /// SIGHUP: reopen the database.
    case reopen
    /// SIGTERM/SIGINT: stop accepting, flush (at most 2 s), then exit.
    case shutdown
}

/// What `FeedHub` asks of the I/O loop, in order.
enum FeedEffect: Equatable {
    /// Output waits: write what the socket takes and report `.wrote`.
    case flush(ConnectionID)
    /// Refuse a connection: send these bytes without waiting, then close it.
    case refuse(ConnectionID, [UInt8])
    /// Stop reading from the client (`shutdown(SHUT_RD)`).
    case stopReading(ConnectionID)
    /// Close the connection's descriptor.
    case close(ConnectionID)
    /// Hand a job to the recomputer.
    case recompute(RecomputeJob)
    /// Ask the source runner to synchronise these sources now (all when empty).
    case syncSources([String], token: Int)
    /// Ask the source runner to read the source table again.
    case reloadSources
    /// SIGHUP: the source runner opens the database again too.
    case reopenSources
    /// An sd_notify message.
    case notify(String)
    case log(LogLevel, String)
    /// Close the listening socket (and remove its file when it is ours).
    case stopListening
    /// Leave the loop.
    case exit
}

/// Work for the recompute thread.
enum RecomputeJob: Sendable, Equatable {
    /// A view got its first subscriber: compute it and publish its first snapshot.
    case activate(View)
    /// A view's grace period ended: forget it.
    case deactivate(View)
    /// Recompute soon (coalesced).
    case refresh
    /// Reopen the database (SIGHUP).
    case reopen
    /// Answer a `snapshot` request, read-your-writes.
    case oneShot(View, token: Int)
    /// Encode the view's current state as a snapshot message: a subscriber needs one and
    /// the hub holds none (it drops its copy when a diff makes it stale).
    case encodeSnapshot(View)
    /// The wall clock stepped or the zone changed: check every view's date now.
    case clockChanged
    case stop
}
