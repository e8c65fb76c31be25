import CCrypto

/// SHA-256 (FIPS 180-4), computed by OpenSSL's EVP digest API.
///
/// Use it incrementally:
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update("hello ")
/// hasher.update([0x77, 0x6f, 0x72, 0x6c, 0x64])
/// let digest = hasher.finalize()   // 32 bytes
/// ```
///
/// or in one shot with ``hash(_:)`` and `hexDigest(_:)`.
///
/// `SHA256` is a value type: copying a hasher forks its state (copy on write), so the
/// digest of a common prefix can be computed once and extended in several ways.
/// ``finalize()`` does not consume the hasher; more data may be fed afterwards and a
/// later `finalize()` covers everything fed so far.
public struct SHA256: Sendable {
    private var context: DigestContext

    /// The size in bytes of a digest.
    public static let digestByteCount = 32

    /// The size in bytes of one compression block.
    public static let blockByteCount = 64

    /// Creates a hasher with nothing fed yet.
    public init() {
        context = DigestContext()
    }

    // MARK: - Feeding data

    /// Feeds raw bytes into the hash. All other `update` overloads funnel into it.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        context.update(bytes)
    }

    /// Feeds a collection of bytes into the hash.
    ///
    /// Contiguous collections (`[UInt8]`, `ArraySlice<UInt8>`, …) are hashed in place;
    /// other collections are copied through a small buffer.
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            self.update(UnsafeRawBufferPointer(buffer))
        }
        guard handled == nil else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { chunk in
            var count = 0
            for byte in bytes {
                chunk[count] = byte
                count += 1
                if count == chunk.count {
                    self.update(UnsafeRawBufferPointer(chunk))
                    count = 0
                }
            }
            if count > 0 {
                self.update(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: chunk[..<count])))
            }
        }
    }

    /// Feeds the UTF-8 encoding of `string` into the hash.
    public mutating func update(_ string: String) {
        var string = string
        string.withUTF8 { self.update(UnsafeRawBufferPointer($0)) }
    }

    // MARK: - Finishing

    /// Returns the 32-byte digest of everything fed so far; the hasher is left unchanged.
    public func finalize() -> [UInt8] {
        context.copy().finish()
    }

    /// The digest, finishing this hasher's own context when no copy shares it.
    private mutating func finalizeConsuming() -> [UInt8] {
        isKnownUniquelyReferenced(&context) ? context.finish() : finalize()
    }

    // MARK: - One-shot helpers

    /// Returns the 32-byte SHA-256 digest of `bytes`.
    public static func hash<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeConsuming()
    }

    /// Returns the SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hexDigest<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        hexString(hash(bytes))
    }

    /// Returns the SHA-256 digest of the UTF-8 encoding of `string` as 64 lowercase
    /// hexadecimal digits.
    public static func hexDigest(_ string: String) -> String {
        var hasher = SHA256()
        hasher.update(string)
        return hexString(hasher.finalizeConsuming())
    }

    /// Formats `bytes` as lowercase hexadecimal, two digits per byte.
    public static func hexString(_ bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            digits.withUTF8Buffer { hex in
                for (i, byte) in bytes.enumerated() {
                    out[2 * i] = hex[Int(byte >> 4)]
                    out[2 * i + 1] = hex[Int(byte & 0x0f)]
                }
            }
            return bytes.count * 2
        }
    }
}

/// OpenSSL, process-wide.
public enum CryptoLibrary {
    /// Initialises OpenSSL without its exit-time cleanup. Call first thing in `main`,
    /// before anything else (libcurl included) initialises it: only the first call can
    /// say so.
    ///
    /// Why: by default OpenSSL frees its providers and algorithms in an `atexit` handler.
    /// A digest context freed on another thread meanwhile (a replaced view memo released
    /// on a Dispatch queue, the digest thread's last state) then reads freed memory: eventd
    /// crashed with SIGSEGV in libcrypto while exiting after SIGTERM, once in a fresh
    /// clone's `ReliabilityTests`. The process's memory goes at exit anyway.
    public static func initialiseWithoutExitCleanup() {
        _ = once
    }

    private static let once: Int32 = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
}
