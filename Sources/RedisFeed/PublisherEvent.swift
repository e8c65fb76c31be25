import Diagnostics
import Glibc
import RedisClient
import Threads

/// What happens to the publisher, as `PublisherMachine` sees it.
public enum PublisherEvent: Sendable, Equatable {
    /// A feed message of a followed view.
    case line(PublishedView, FeedLine)
    /// Lines of the view were dropped before this one (the hand-over was full): its
    /// state goes to Redis as a snapshot, as after an outage.
    case skipped(PublishedView, FeedLine)
    /// The I/O connected (and logged in) after a `.connect` effect.
    case connected
    /// The `.connect` effect failed.
    case connectFailed(RedisError)
    /// The replies to a `.send` effect's commands, in order.
    case answered(PublisherRequest, [RedisReply])
    /// A `.send` lost the connection (an error that `losesConnection`).
    case failed(PublisherRequest, RedisError)
    /// Time passed (about once a second).
    case tick
    /// A gateway announced a new wanted view on the wanted channel.
    case announcement
    /// eventd's latest status line (`StatusKey`), written when Redis is reachable.
    case status([UInt8])
}

/// Why commands were sent: what their replies are read as.
public enum PublisherRequest: Sendable, Equatable {
    /// One feed message of a view (or its latest snapshot, when `republish`), in a
    /// `MULTI`/`EXEC` with the snapshot key.
    case publish(PublishedView, seq: Int64, republish: Bool)
    /// The wanted set read, then `EXISTS` of each listed view's snapshot key (an emptied
    /// Redis has none).
    case readWanted(checked: [PublishedView])
    /// eventd's status written to `PREFIX:status`.
    case status
}

/// What `PublisherMachine` asks of its I/O, in order.
public enum PublisherEffect: Sendable, Equatable {
    /// Connect (and log in) now, then report `.connected` or `.connectFailed`.
    case connect
    /// Send these commands in one pipeline and report `.answered` or `.failed`.
    case send(PublisherRequest, [RedisCommand])
    /// Start taking the view's feed (its lines arrive as `.line`, a snapshot first).
    case follow(PublishedView)
    /// Stop taking the view's feed.
    case unfollow(PublishedView)
    case log(LogLevel, String)
}

/// The two clocks the publisher needs: monotonic for its own intervals, the wall clock
/// for the wanted set's expiry scores, which other hosts compare.
public struct PublisherClock: Sendable, Equatable {
    public var monotonic: MonotonicInstant
    /// Milliseconds since the Unix epoch.
    public var wallMilliseconds: Int64

    /// Creates a reading.
    public init(monotonic: MonotonicInstant, wallMilliseconds: Int64) {
        self.monotonic = monotonic
        self.wallMilliseconds = wallMilliseconds
    }

    /// The system's clocks now.
    public static func now() -> PublisherClock {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return PublisherClock(monotonic: MonotonicInstant.now(),
                              wallMilliseconds: Int64(wall.tv_sec) * 1000 + Int64(wall.tv_nsec) / 1_000_000)
    }
}

/// The publisher's settings.
public struct PublisherSettings: Sendable, Equatable {
    public var keys: FeedKeys
    /// Views published whether or not a gateway wants them (`--publish-view`).
    public var configured: [PublishedView]
    /// `XADD … MAXLEN ~ N`.
    public var streamLength: Int
    /// How often the wanted set is read without an announcement.
    public var wantedReadInterval: Duration
    /// The first retry's delay after a failed connection; doubled up to `maxBackoff`.
    public var firstBackoff: Duration
    public var maxBackoff: Duration

    /// Settings with the defaults of docs/scaling.md.
    public init(keys: FeedKeys = FeedKeys(), configured: [PublishedView] = [], streamLength: Int = 1024,
                wantedReadInterval: Duration = .seconds(5), firstBackoff: Duration = .milliseconds(500),
                maxBackoff: Duration = .seconds(30)) {
        self.keys = keys
        self.configured = configured
        self.streamLength = streamLength
        self.wantedReadInterval = wantedReadInterval
        self.firstBackoff = firstBackoff
        self.maxBackoff = maxBackoff
    }
}
