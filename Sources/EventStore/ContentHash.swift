import Digests

/// A file's content fingerprint: whether an input is byte for byte the one last
/// synchronised (`source.synced_hash`, a live source's body hash). The first 64 bits of
/// its SHA-256, as 16 hex digits.
///
/// SHA-256 because OpenSSL hashes at the CPU's SHA instructions' speed, about twice as
/// fast as the byte-at-a-time FNV-1a used before (each byte waits for the previous one's
/// multiply), which was most of an unchanged re-import and of an import's first,
/// single-threaded moments. A
/// file whose stored hash is the older FNV one simply does not match once: it is
/// imported again, with its unchanged VEVENT blocks skipped, and stored anew.
public enum ContentHash {
    /// The fingerprint of `bytes`, as 16 hex digits.
    public static func of(bytes: [UInt8]) -> String {
        String(SHA256.hexDigest(bytes).prefix(16))
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
