import RedisClient

/// The connection behind a machine's `connect` and `send` effects, for the publisher's
/// and a watcher's threads: both machines ask for a connection, then send pipelines,
/// and learn the outcome as an event. A connection that an error leaves unusable is
/// dropped; the machine's next `connect` makes a new one.
struct RedisLink {
    let target: RedisPublisher.Target
    /// How much longer than the I/O timeout a reply may take (`XREAD BLOCK`'s wait).
    let blocking: Duration
    private var connection: RedisConnection?

    init(target: RedisPublisher.Target, blocking: Duration = .zero) {
        self.target = target
        self.blocking = blocking
    }

    /// Connects anew (the old connection, if any, is closed).
    mutating func connect() -> Result<Void, RedisError> {
        connection = nil
        do {
            connection = try target.connect(blocking: blocking)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Sends `commands` as one pipeline.
    mutating func send(_ commands: [RedisCommand]) -> Result<[RedisReply], RedisError> {
        guard let redis = connection else { return .failure(RedisError(.io, operation: "send", message: "not connected")) }
        do {
            return .success(try redis.pipeline(commands))
        } catch {
            if error.losesConnection { connection = nil }
            return .failure(error)
        }
    }
}

extension Result {
    /// The success value, or the failure turned into one: an outcome as the machine's event.
    func catching(_ failed: (Failure) -> Success) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): return failed(error)
        }
    }
}
