import CCrypto

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
