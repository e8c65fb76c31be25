// MARK: - SHA256

/// A pure-Swift implementation of the SHA-256 hash function (FIPS 180-4).
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
/// `SHA256` is a value type: copying a hasher forks its state, so the digest
/// of a common prefix can be computed once and extended in several ways.
/// ``finalize()`` does not consume the hasher; more data may be fed afterwards
/// and a later `finalize()` covers everything fed so far.
public struct SHA256: Sendable {
    // MARK: - State

    /// The eight 32-bit chaining values `H0...H7`.
    internal var state: State

    /// Up to 63 bytes of input that have not yet filled a whole block.
    internal var pending: Block

    /// Number of valid bytes at the start of ``pending`` (0..<64).
    internal var pendingCount: Int

    /// Total number of message bytes fed so far.
    internal var totalLength: UInt64

    /// The size in bytes of a digest.
    public static let digestByteCount = 32

    /// The size in bytes of one compression block.
    public static let blockByteCount = 64

    // MARK: - Initialization

    /// Creates a hasher with the FIPS 180-4 initial hash value.
    public init() {
        state = State()
        pending = Block()
        pendingCount = 0
        totalLength = 0
    }

    // MARK: - Feeding data

    /// Feeds raw bytes into the hash.
    ///
    /// This is the fastest entry point; all other `update` overloads funnel
    /// into it.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var input = bytes.baseAddress, !bytes.isEmpty else { return }
        var remaining = bytes.count
        totalLength &+= UInt64(truncatingIfNeeded: remaining)

        // Top up a partially filled block first.
        if pendingCount > 0 {
            let take = min(remaining, SHA256.blockByteCount - pendingCount)
            let offset = pendingCount
            withUnsafeMutableBytes(of: &pending) { block in
                block.baseAddress!.advanced(by: offset).copyMemory(from: input, byteCount: take)
            }
            pendingCount += take
            input += take
            remaining -= take
            guard pendingCount == SHA256.blockByteCount else { return }
            let block = pending
            withUnsafeBytes(of: block) { raw in
                SHA256.compress(&state, blocks: raw.baseAddress!, count: 1)
            }
            pendingCount = 0
        }

        // Compress whole blocks straight from the caller's memory.
        let wholeBlocks = remaining / SHA256.blockByteCount
        if wholeBlocks > 0 {
            SHA256.compress(&state, blocks: input, count: wholeBlocks)
            input += wholeBlocks * SHA256.blockByteCount
            remaining -= wholeBlocks * SHA256.blockByteCount
        }

        // Stash the tail.
        if remaining > 0 {
            let tail = remaining
            withUnsafeMutableBytes(of: &pending) { block in
                block.baseAddress!.copyMemory(from: input, byteCount: tail)
            }
            pendingCount = tail
        }
    }

    /// Feeds a collection of bytes into the hash.
    ///
    /// Contiguous collections (`[UInt8]`, `ArraySlice<UInt8>`, `Data`, …) are
    /// hashed in place; other collections are copied through a small buffer.
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

    /// Returns the 32-byte digest of everything fed so far.
    ///
    /// The hasher itself is left unchanged.
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = totalLength &* 8

        // Padding: 0x80, zeros up to 56 mod 64, then the 64-bit big-endian length.
        let padCount = (copy.pendingCount < 56 ? 56 : 120) - copy.pendingCount
        var padding = Block()
        withUnsafeMutableBytes(of: &padding) { $0[0] = 0x80 }
        withUnsafeBytes(of: padding) { raw in
            copy.update(UnsafeRawBufferPointer(rebasing: raw[..<padCount]))
        }
        withUnsafeBytes(of: bitLength.bigEndian) { copy.update($0) }
        precondition(copy.pendingCount == 0, "SHA256 padding must end on a block boundary")

        return copy.state.bigEndianBytes()
    }

    // MARK: - One-shot helpers

    /// Returns the 32-byte SHA-256 digest of `bytes`.
    public static func hash<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Returns the SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hexDigest<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        hexString(hash(bytes))
    }

    /// Returns the SHA-256 digest of the UTF-8 encoding of `string` as
    /// 64 lowercase hexadecimal digits.
    public static func hexDigest(_ string: String) -> String {
        var hasher = SHA256()
        hasher.update(string)
        return hexString(hasher.finalize())
    }

    /// Formats `bytes` as lowercase hexadecimal, two digits per byte.
    internal static func hexString(_ bytes: [UInt8]) -> String {
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

// MARK: - Storage types

extension SHA256 {
    /// The eight working hash words.
    internal struct State: Sendable {
        var h0: UInt32 = 0x6a09_e667
        var h1: UInt32 = 0xbb67_ae85
        var h2: UInt32 = 0x3c6e_f372
        var h3: UInt32 = 0xa54f_f53a
        var h4: UInt32 = 0x510e_527f
        var h5: UInt32 = 0x9b05_688c
        var h6: UInt32 = 0x1f83_d9ab
        var h7: UInt32 = 0x5be0_cd19

        init() {}

        /// The digest: the words serialized big-endian.
        func bigEndianBytes() -> [UInt8] {
            let words = [h0, h1, h2, h3, h4, h5, h6, h7]
            var out = [UInt8]()
            out.reserveCapacity(32)
            for word in words {
                out.append(UInt8(truncatingIfNeeded: word &>> 24))
                out.append(UInt8(truncatingIfNeeded: word &>> 16))
                out.append(UInt8(truncatingIfNeeded: word &>> 8))
                out.append(UInt8(truncatingIfNeeded: word))
            }
            return out
        }
    }

    /// 64 bytes of inline storage for a partial block.
    internal struct Block: Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
            = (0, 0, 0, 0, 0, 0, 0, 0)

        init() {}
    }
}
