import CCrypto

// MARK: - Round constants

extension SHA256 {
    /// The 64 round constants `K0...K63` (FIPS 180-4 §4.2.2): the first 32 bits
    /// of the fractional parts of the cube roots of the first 64 primes.
    internal static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

// MARK: - Compression function

extension SHA256 {
    /// Runs the SHA-256 compression function over `count` consecutive 64-byte
    /// blocks starting at `blocks` (no alignment required), updating `state`.
    ///
    /// All arithmetic is wrapping and all memory access is unchecked; the
    /// message schedule lives in a stack-allocated 64-word scratch buffer.
    internal static func compress(_ state: inout State, blocks: UnsafeRawPointer, count: Int) {
        // OpenSSL's block function uses the CPU's SHA extensions where present
        // (several times faster than the portable rounds below, which remain the
        // reference the tests hold both to).
        var ctx = SHA256_CTX()
        ctx.h = (state.h0, state.h1, state.h2, state.h3, state.h4, state.h5, state.h6, state.h7)
        var block = blocks.assumingMemoryBound(to: UInt8.self)
        for _ in 0..<count {
            SHA256_Transform(&ctx, block)
            block += blockByteCount
        }
        (state.h0, state.h1, state.h2, state.h3, state.h4, state.h5, state.h6, state.h7) = ctx.h
    }

    /// The portable compression function (FIPS 180-4), kept as the reference
    /// implementation for tests.
    internal static func compressPortable(_ state: inout State, blocks: UnsafeRawPointer, count: Int) {
        roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                let k = constants.baseAddress!
                let w = schedule.baseAddress!
                var block = blocks
                for _ in 0..<count {
                    compressBlock(&state, block, w, k)
                    block += blockByteCount
                }
            }
        }
    }

    /// Compresses a single block. `w` is a 64-word scratch area, `k` the round
    /// constants.
    @inline(__always)
    private static func compressBlock(
        _ state: inout State,
        _ block: UnsafeRawPointer,
        _ w: UnsafeMutablePointer<UInt32>,
        _ k: UnsafePointer<UInt32>
    ) {
        // Message schedule (§6.2.2 step 1).
        for t in 0..<16 {
            w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
        }
        for t in 16..<64 {
            let x = w[t &- 15]
            let y = w[t &- 2]
            let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x &>> 3)
            let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y &>> 10)
            w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
        }

        // Working variables (§6.2.2 steps 2–3).
        var a = state.h0, b = state.h1, c = state.h2, d = state.h3
        var e = state.h4, f = state.h5, g = state.h6, h = state.h7
        for t in 0..<64 {
            let bigSigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choose = (e & f) ^ (~e & g)
            let t1 = h &+ bigSigma1 &+ choose &+ k[t] &+ w[t]
            let bigSigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = bigSigma0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }

        // Intermediate hash value (§6.2.2 step 4).
        state.h0 &+= a
        state.h1 &+= b
        state.h2 &+= c
        state.h3 &+= d
        state.h4 &+= e
        state.h5 &+= f
        state.h6 &+= g
        state.h7 &+= h
    }

    /// Rotates `x` right by `n` bits (0 < n < 32).
    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x &>> n) | (x &<< (32 &- n))
    }
}
