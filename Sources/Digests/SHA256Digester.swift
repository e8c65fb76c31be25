/// SHA-256 of many short messages, one after another on one thread, with one OpenSSL
/// context reused.
///
/// Why: a `SHA256` per message allocates its context, copies it to finalize (so that
/// the hasher stays usable) and returns an array: for the 100,000 VEVENT blocks of an
/// import, that was most of the cost of their digests.
public final class SHA256Digester {
    private let context = DigestContext()

    /// A digester (not `Sendable`: one per thread).
    public init() {}

    /// The SHA-256 of `prefix` followed by `message`, handed to `body` (32 bytes, valid
    /// only inside it).
    public func digest<R>(_ prefix: UnsafeRawBufferPointer, _ message: UnsafeRawBufferPointer,
                          _ body: (UnsafeRawBufferPointer) -> R) -> R {
        context.restart()
        if !prefix.isEmpty { context.update(prefix) }
        if !message.isEmpty { context.update(message) }
        return withUnsafeTemporaryAllocation(byteCount: SHA256.digestByteCount, alignment: 8) { out in
            context.finish(into: out)
            return body(UnsafeRawBufferPointer(out))
        }
    }
}
