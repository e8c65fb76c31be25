import CCrypto

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
