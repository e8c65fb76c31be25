import CCrypto

/// One OpenSSL digest context (`EVP_MD_CTX`) computing SHA-256; owns the handle and
/// frees it in `deinit`.
final class DigestContext: @unchecked Sendable { // @unchecked: mutated only via SHA256's copy-on-write (uniquely referenced)
    private let handle: OpaquePointer

    /// A context initialised for SHA-256.
    init() {
        handle = Self.newContext()
        Self.require(EVP_DigestInit_ex(handle, DigestAlgorithm.sha256.handle, nil), "EVP_DigestInit_ex")
    }

    /// A context in the same state as `other`.
    private init(copying other: DigestContext) {
        handle = Self.newContext()
        Self.require(EVP_MD_CTX_copy_ex(handle, other.handle), "EVP_MD_CTX_copy_ex")
    }

    deinit { EVP_MD_CTX_free(handle) }

    /// An independent context in the same state.
    func copy() -> DigestContext { DigestContext(copying: self) }

    /// Feeds `bytes`.
    func update(_ bytes: UnsafeRawBufferPointer) {
        Self.require(EVP_DigestUpdate(handle, bytes.baseAddress, bytes.count), "EVP_DigestUpdate")
    }

    /// Starts again with nothing fed (the context's memory is kept).
    func restart() {
        Self.require(EVP_DigestInit_ex(handle, DigestAlgorithm.sha256.handle, nil), "EVP_DigestInit_ex")
    }

    /// Writes the digest of everything fed into `out` (at least 32 bytes); the context
    /// is used up until `restart`.
    func finish(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= SHA256.digestByteCount)
        var length: UInt32 = 0
        Self.require(EVP_DigestFinal_ex(handle, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length), "EVP_DigestFinal_ex")
    }

    /// The digest of everything fed; the context is used up.
    func finish() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: SHA256.digestByteCount) { buffer, count in
            var length: UInt32 = 0
            Self.require(EVP_DigestFinal_ex(handle, buffer.baseAddress, &length), "EVP_DigestFinal_ex")
            count = Int(length)
        }
    }

    private static func newContext() -> OpaquePointer {
        guard let handle = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        return handle
    }

    /// OpenSSL's digest calls fail only without memory or with a broken library.
    private static func require(_ result: Int32, _ call: StaticString) {
        if result != 1 { fatalError("\(call) failed") }
    }
}

/// OpenSSL's SHA-256 implementation, fetched once (OpenSSL 3 would otherwise look it
/// up in its providers on every `EVP_DigestInit_ex`); owns the `EVP_MD`.
final class DigestAlgorithm: @unchecked Sendable { // @unchecked: a fetched EVP_MD is immutable and thread-safe

    let handle: OpaquePointer

    /// SHA-256 from the default provider.
    static let sha256 = DigestAlgorithm()

    private init() {
        guard let md = EVP_MD_fetch(nil, "SHA256", nil) else { fatalError("OpenSSL has no SHA256") }
        handle = md
    }

    deinit { EVP_MD_free(handle) }
}

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
