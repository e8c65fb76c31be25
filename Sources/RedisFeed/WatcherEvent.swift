import Threads
import FeedProtocol
import RedisClient

/// What happens to one view's reader in a gateway, as `WatcherMachine` sees it.
public enum WatcherEvent: Sendable, Equatable {
    /// A client starts reading the view (`resume` from its `Last-Event-ID`); a one-shot
    /// client (`/api/snapshot`) gets the snapshot and leaves.
    case join(client: Int, resume: Request.Resume?, oneShot: Bool)
    /// The client is gone.
    case leave(client: Int)
    /// The I/O connected (and logged in) after a `.connect` effect.
    case connected
    /// The `.connect` effect failed.
    case connectFailed(RedisError)
    /// The replies to a `.send` effect's commands, in order.
    case answered(WatcherRequest, [RedisReply])
    /// A `.send` failed (the I/O drops the connection).
    case failed(WatcherRequest, RedisError)
    /// The I/O took its inbox and has nothing else to report: time for the next read.
    case tick
}

/// Why commands were sent: what their replies are read as.
public enum WatcherRequest: Sendable, Equatable {
    /// `ZADD` of the view in the wanted set (its reply says whether it is new there).
    case want
    /// `PUBLISH` on the wanted channel: eventd reads the set at once.
    case announce
    /// The snapshot key and the whole stream, in one `MULTI`/`EXEC`.
    case start
    /// The snapshot key and the stream's last entry, in one `MULTI`/`EXEC`.
    case snapshot
    /// `XREAD BLOCK` from the last entry read.
    case read
}

/// What `WatcherMachine` asks of its I/O, in order.
public enum WatcherEffect: Sendable, Equatable {
    /// Connect (and log in), then report `.connected` or `.connectFailed`.
    case connect
    /// Send these commands in one pipeline and report `.answered` or `.failed`.
    case send(WatcherRequest, [RedisCommand])
    /// Feed lines for the client (each without its newline).
    case deliver(client: Int, lines: [[UInt8]])
    /// The client's upstream is gone (Redis is unreachable): its browser is told.
    case close(client: Int)
    /// Redis became reachable (`true`) or not (`false`, with why) for this view; the
    /// upstream logs once per outage across views.
    case reachable(Bool, String)
    /// Nobody has read the view for the idle grace: the watcher ends.
    case finished
}

/// A watcher's intervals (docs/scaling.md); tests shorten none of them: the clock is theirs.
public struct WatcherSettings: Sendable, Equatable {
    /// How long one `XREAD` blocks: a join waits at most about this long.
    public var blockMilliseconds = 250
    /// Entries one `XREAD` returns at most.
    public var readCount = 512
    /// How often the view's wanted-set entry is renewed while clients read it.
    public var wantedRefresh: Duration = .seconds(20)
    /// How long an entry of the wanted set lives (its score is now plus this).
    public var wantedLifetime: Duration = .seconds(60)
    /// How long the watcher lives without clients.
    public var idleGrace: Duration = .seconds(60)
    /// The first reconnection's delay; doubled after each failure up to `maxBackoff`,
    /// back to the first once the view is read again.
    public var firstBackoff: Duration = .milliseconds(500)
    public var maxBackoff: Duration = .seconds(30)
    /// How long a new view waits for eventd's first snapshot, and how often it looks.
    public var snapshotWait: Duration = .seconds(30)
    public var snapshotPoll: Duration = .milliseconds(50)

    /// The defaults.
    public init() {}
}
