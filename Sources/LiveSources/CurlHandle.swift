import CCurl

/// One libcurl easy handle, owned: created in `init`, released in `deinit`. Every
/// libcurl return code goes through `check`. A handle is reused for request after
/// request by one thread (it keeps its connections and TLS sessions alive, which is
/// what makes a poll answered by `304` cheap), never shared between threads.
final class CurlHandle {
    let raw: UnsafeMutableRawPointer

    /// `curl_global_init` once per process, before the first handle (it is not thread-safe
    /// itself; a `static let` runs it exactly once).
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    init() throws(CurlError) {
        try Self.check(Self.globalInit, "curl_global_init")
        guard let handle = curl_easy_init() else { throw CurlError(code: CURLE_FAILED_INIT, operation: "curl_easy_init") }
        raw = handle
    }

    deinit { curl_easy_cleanup(raw) }

    /// Throws for any code but `CURLE_OK`.
    static func check(_ code: CURLcode, _ operation: String) throws(CurlError) {
        guard code != CURLE_OK else { return }
        throw CurlError(code: code, operation: operation)
    }

    func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try Self.check(eventd_curl_set_long(raw, option, value), "setopt \(option.rawValue)")
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try Self.check(eventd_curl_set_offset(raw, option, curl_off_t(value)), "setopt \(option.rawValue)")
    }

    /// libcurl copies string options (since 7.17), so the Swift string need not outlive the call.
    func set(_ option: CURLoption, _ value: String?) throws(CurlError) {
        let code = value.map { eventd_curl_set_string(raw, option, $0) } ?? eventd_curl_set_string(raw, option, nil)
        try Self.check(code, "setopt \(option.rawValue)")
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(CurlError) {
        try Self.check(eventd_curl_set_pointer(raw, option, pointer), "setopt \(option.rawValue)")
    }

    func set(_ option: CURLoption, list: CurlHeaderList) throws(CurlError) {
        try Self.check(eventd_curl_set_list(raw, option, list.raw), "setopt \(option.rawValue)")
    }

    func set(_ option: CURLoption, function: eventd_curl_data_fn) throws(CurlError) {
        try Self.check(eventd_curl_set_data_fn(raw, option, function), "setopt \(option.rawValue)")
    }

    func setPrerequest(_ function: eventd_curl_prereq_fn) throws(CurlError) {
        try Self.check(eventd_curl_set_prereq_fn(raw, function), "setopt prereq")
    }

    func setProgress(_ function: eventd_curl_progress_fn) throws(CurlError) {
        try Self.check(eventd_curl_set_progress_fn(raw, function), "setopt progress")
    }

    func info(_ item: CURLINFO) throws(CurlError) -> Int {
        var value = 0
        try Self.check(eventd_curl_get_long(raw, item, &value), "getinfo \(item.rawValue)")
        return value
    }

    /// Runs the transfer configured so far.
    func perform() throws(CurlError) { try Self.check(curl_easy_perform(raw), "perform") }

    /// Forgets the previous request's options (keeps connections and caches).
    func reset() { curl_easy_reset(raw) }
}

/// A `curl_slist` of request headers, owned: freed in `deinit`. It must outlive the
/// transfer that uses it.
final class CurlHeaderList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) throws(CurlError) {
        for line in lines {
            guard let next = curl_slist_append(raw, line) else {
                throw CurlError(code: CURLE_OUT_OF_MEMORY, operation: "curl_slist_append")
            }
            raw = next
        }
    }

    deinit { curl_slist_free_all(raw) }
}

/// A libcurl call that failed.
struct CurlError: Error, CustomStringConvertible {
    var code: CURLcode
    var operation: String

    /// libcurl's own words for the code (they never contain the URL).
    var description: String { "\(operation): \(String(cString: curl_easy_strerror(code)))" }
}
