import EventStore
import CCurl

/// What a conditional GET brought.
public enum FetchResult: Sendable, Equatable {
    /// `304 Not Modified`: the last body still holds.
    case notModified(etag: String?, lastModified: String?)
    /// A `2xx` body (gzip already decoded) and its validators.
    case body([UInt8], etag: String?, lastModified: String?)
}

/// HTTP over libcurl: conditional GETs with gzip, bounded redirects, verified TLS,
/// timeouts and size limits. One fetcher per thread; it reuses its handle, so its
/// connections stay open between polls of the same server.
public final class HTTPFetcher {
    private let handle: CurlHandle
    private let limits: HTTPLimits
    /// Asked about once a second during a transfer: true aborts it (shutdown).
    private let shouldStop: (@Sendable () -> Bool)?
    /// The class of each address connected to (`RedirectPolicy`).
    private let classify: @Sendable (String) -> AddressClass

    /// Creates a fetcher with `limits`; `shouldStop` lets a stopping daemon cut a
    /// transfer short instead of waiting for its timeout.
    /// `classify` is for tests (which stay on loopback): it says what each address is.
    public init(limits: HTTPLimits = HTTPLimits(), shouldStop: (@Sendable () -> Bool)? = nil,
                classify: @escaping @Sendable (String) -> AddressClass = { AddressClass(ip: $0) }) throws {
        self.classify = classify
        do { handle = try CurlHandle() } catch { throw FetchFailure(.network, "libcurl: \(error)") }
        self.limits = limits
        self.shouldStop = shouldStop
    }

    /// GETs `url` (http or https), sending `If-None-Match`/`If-Modified-Since` when
    /// validators are given. Throws a `FetchFailure` whose message names the URL only
    /// as `scheme://host:port/…`.
    public func fetch(_ url: String, etag: String?, lastModified: String?) throws(FetchFailure) -> FetchResult {
        let shown = LiveSource.redact(url: url)
        let transfer = Transfer(maxBody: limits.maxBodyBytes, maxHeaders: limits.maxHeaderBytes, shouldStop: shouldStop,
                                classify: classify)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var lines: [String] = []
        // Validators stored before they were checked (`Transfer.isSafeHeaderValue`) are not sent.
        if let etag, Transfer.isSafeHeaderValue(etag) { lines.append("If-None-Match: \(etag)") }
        if let lastModified, Transfer.isSafeHeaderValue(lastModified) { lines.append("If-Modified-Since: \(lastModified)") }
        let headers: CurlHeaderList
        do {
            headers = try CurlHeaderList(lines)
            try configure(url: url, headers: headers, context: context)
        } catch {
            throw FetchFailure(.network, "\(shown): libcurl setup failed: \(error)")
        }
        do {
            try withExtendedLifetime((transfer, headers)) { () throws(CurlError) in try handle.perform() }
        } catch {
            throw Self.failure(error.code, transfer: transfer, limits: limits, shown: shown)
        }
        let status = (try? handle.info(CURLINFO_RESPONSE_CODE)) ?? 0
        switch status {
        case 304:
            return .notModified(etag: transfer.etag ?? etag, lastModified: transfer.lastModified ?? lastModified)
        case 200..<300:
            return .body(transfer.body, etag: transfer.etag, lastModified: transfer.lastModified)
        default:
            throw FetchFailure(.httpStatus, "\(shown): HTTP \(status)")
        }
    }

    private func configure(url: String, headers: CurlHeaderList, context: UnsafeMutableRawPointer) throws(CurlError) {
        handle.reset()
        try handle.set(CURLOPT_URL, url)
        try handle.set(CURLOPT_NOSIGNAL, 1)
        try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try handle.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try handle.set(CURLOPT_FOLLOWLOCATION, 1)
        try handle.set(CURLOPT_MAXREDIRS, limits.maxRedirects)
        try handle.set(CURLOPT_SSL_VERIFYPEER, 1)
        try handle.set(CURLOPT_SSL_VERIFYHOST, 2)
        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, Int(limits.connectTimeout / .milliseconds(1)))
        try handle.set(CURLOPT_TIMEOUT_MS, Int(limits.totalTimeout / .milliseconds(1)))
        // "" offers every encoding libcurl decodes (gzip, deflate, …).
        try handle.set(CURLOPT_ACCEPT_ENCODING, "")
        try handle.set(CURLOPT_USERAGENT, limits.userAgent)
        try handle.set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(limits.maxBodyBytes))
        try handle.set(CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
        if let netrc = limits.netrcFile { try handle.set(CURLOPT_NETRC_FILE, netrc) }
        try handle.set(CURLOPT_HTTPHEADER, list: headers)
        try handle.set(CURLOPT_WRITEFUNCTION, function: Transfer.receiveBody)
        try handle.set(CURLOPT_WRITEDATA, pointer: context)
        try handle.set(CURLOPT_HEADERFUNCTION, function: Transfer.receiveHeader)
        try handle.set(CURLOPT_HEADERDATA, pointer: context)
        try handle.setPrerequest(Transfer.prerequest)
        try handle.set(CURLOPT_PREREQDATA, pointer: context)
        if shouldStop != nil {
            try handle.set(CURLOPT_NOPROGRESS, 0)
            try handle.setProgress(Transfer.progress)
            try handle.set(CURLOPT_XFERINFODATA, pointer: context)
        }
    }

    /// The failure for a libcurl code, one line, no URL but the redacted one.
    static func failure(_ code: CURLcode, transfer: Transfer, limits: HTTPLimits, shown: String) -> FetchFailure {
        if transfer.bodyOverflow || code == CURLE_FILESIZE_EXCEEDED {
            return FetchFailure(.oversize, "\(shown): body over \(limits.maxBodyBytes >> 20) MiB, transfer aborted")
        }
        if transfer.stopped { return FetchFailure(.network, "\(shown): cancelled (eventd is stopping)") }
        if let address = transfer.refusedAddress {
            return FetchFailure(.redirectRefused, "\(shown): redirected from a public host to an internal address (\(address)); refused")
        }
        if transfer.headerOverflow {
            return FetchFailure(.headersTooLarge, "\(shown): response headers over \(limits.maxHeaderBytes >> 10) KiB, transfer aborted")
        }
        let words = String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_COULDNT_CONNECT: return FetchFailure(.refused, "\(shown): cannot connect (\(words))")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return FetchFailure(.dns, "\(shown): cannot resolve the host name")
        case CURLE_OPERATION_TIMEDOUT: return FetchFailure(.timeout, "\(shown): timed out (\(words))")
        case CURLE_TOO_MANY_REDIRECTS: return FetchFailure(.tooManyRedirects, "\(shown): more than \(limits.maxRedirects) redirects")
        case CURLE_PARTIAL_FILE: return FetchFailure(.truncated, "\(shown): the body ended early (truncated)")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return FetchFailure(.tls, "\(shown): TLS failed (\(words))")
        default: return FetchFailure(.network, "\(shown): \(words)")
        }
    }
}
