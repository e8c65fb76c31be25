import Glibc

/// Byte searches for the passes that read a whole file before any component is parsed
/// (`InputRepair`, `CalendarScanner`). A clean file is mostly short ASCII lines: finding
/// each line end with `memchr` (vector instructions) and skipping ASCII a word at a
/// time costs a fraction of a byte-by-byte loop with Swift's bounds checks.
enum ByteSearch {
    /// The index of the first `byte` in `bytes[from..<to]`, or nil.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress,
              let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    /// The index of the first `byte` in `bytes`, or nil.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        firstIndex(of: byte, in: bytes, from: 0, to: bytes.count)
    }

    /// The index of the first `byte` in `bytes[from..<to]`, or `to` (the end of a line
    /// when the byte is not there).
    @inline(__always)
    static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        firstIndex(of: byte, in: bytes, from: from, to: to) ?? to
    }

    /// True when every CR is followed by an LF and every LF follows a CR (a clean file's
    /// line ends), checked a word at a time: the CRs of a word, moved one byte on, must
    /// be exactly its LFs.
    static func lineEndsAreCRLF(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        // 0x80 in byte 0 when the word before ended in a CR, so that this one must start with an LF.
        var carry: UInt64 = 0
        while i + 8 <= bytes.count {
            // Byte k of the file at bits 8k..<8k+8 of the word, on any host.
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let cr = zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
            let lf = zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
            // Each CR moved up to the byte after it: there must be an LF exactly there.
            if (cr << 8) | carry != lf { return false }
            carry = cr >> 56
            i += 8
        }
        var afterCR = carry != 0
        while i < bytes.count {
            if (bytes[i] == 10) != afterCR { return false }
            afterCR = bytes[i] == 13
            i += 1
        }
        return !afterCR
    }

    /// 0x80 in each byte of `x` that is 0, and 0 elsewhere: exact, since the addition
    /// cannot carry from one byte into the next (the well-known "has zero byte" test
    /// only answers whether there is one).
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((x & low7) &+ low7) | x | low7)
    }

    /// The end of the run of ASCII bytes starting at `from` in whole 8-byte words: the
    /// caller reads the few bytes after it (the rest of a word, or the last < 8) itself.
    @inline(__always)
    static func asciiWordsEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard let base = bytes.baseAddress else { return from }
        let raw = UnsafeRawPointer(base)
        var i = from
        // Any byte >= 0x80 sets its top bit; `loadUnaligned` since `i` is any offset.
        while i + 8 <= bytes.count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            i += 8
        }
        return i
    }
}
