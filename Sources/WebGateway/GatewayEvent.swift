import Diagnostics
import Reactor

/// A browser connection, numbered by the I/O loop. Its subscription on eventd's socket,
/// when it has one, goes by the same number.
public typealias ClientID = Int

/// What happens to the gateway, as `Gateway` sees it. The I/O loop turns readiness and
/// bytes into these; tests send them directly, with a fake clock.
public enum GatewayEvent: Sendable {
    /// Something happened to a browser's connection (the id is its `ClientID`).
    case browser(ConnectionEvent)
    /// A browser connected from `peer` (`GatewayListener.peerHost`); `.browser(.accepted)`
    /// is the same from an unknown address (all of those count as one).
    /// `refusal`: why its account may not ask (`PeerPolicy`); every request it sends is
    /// answered 403 with it.
    case browserAccepted(ClientID, peer: String, refusal: String? = nil)
    /// The connection to eventd for this browser is up (the request line can go).
    case upstreamConnected(ClientID)
    /// eventd could not be reached.
    case upstreamUnavailable(ClientID, reason: String)
    /// Bytes arrived from eventd for this browser.
    case upstreamReceived(ClientID, ArraySlice<UInt8>)
    /// eventd closed the connection (it stopped, restarted, or dropped us); `reason`, a
    /// fixed text naming no path or user, says why when the upstream knows better.
    case upstreamClosed(ClientID, reason: String? = nil)
    /// Time passed (at least once a second).
    case tick
    /// The wall-clock time for `Date` headers (IMF-fixdate), once a second: the gateway
    /// reads no clock itself.
    case clock(httpDate: String)
    /// eventd-web is stopping (SIGTERM): end every stream cleanly, take no new request.
    case shutdown
}

/// What `Gateway` asks of the I/O loop, in order.
public enum GatewayEffect: Sendable, Equatable {
    /// Output waits for the browser: write what the socket takes and report `.wrote`.
    case flush(ClientID)
    /// The answer is written: `shutdown(SHUT_WR)`, then wait for the browser to close.
    case finishWriting(ClientID)
    /// Close the browser's connection.
    case close(ClientID)
    /// Connect to eventd's socket for this browser; report `.upstreamConnected` or
    /// `.upstreamUnavailable`.
    case connectUpstream(ClientID)
    /// Send a request line to eventd on this browser's connection.
    case sendUpstream(ClientID, [UInt8])
    /// Close the browser's connection to eventd.
    case closeUpstream(ClientID)
    /// A log line.
    case log(LogLevel, String)
    /// Much output was queued and now nearly none is: give the heap's free pages back
    /// to the kernel (`malloc_trim`), as eventd does when views go.
    case releaseMemory
}
