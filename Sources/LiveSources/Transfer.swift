import Foundation
import CCurl

/// What libcurl's callbacks collect for one transfer: the body (bounded) and the
/// validators of the last response (each redirect starts a new header block).
/// Reached from C through an unretained pointer that the fetcher keeps alive for the
/// length of `curl_easy_perform`.
final class Transfer {
    var body: [UInt8] = []
    var etag: String?
    var lastModified: String?
    private var headerBytes = 0
    private let maxBody: Int
    private let maxHeaders: Int
    /// Set when a callback aborted the transfer because a limit was passed.
    private(set) var bodyOverflow = false
    private(set) var headerOverflow = false

    private let shouldStop: (@Sendable () -> Bool)?
    private(set) var stopped = false

    /// The class of an address (`AddressClass(ip:)`; tests give their own).
    private let classify: @Sendable (String) -> AddressClass
    /// The class of the first address connected to, and the address of a request
    /// refused by `RedirectPolicy`.
    private var firstClass: AddressClass?
    private(set) var refusedAddress: String?

    init(maxBody: Int, maxHeaders: Int, shouldStop: (@Sendable () -> Bool)?,
         classify: @escaping @Sendable (String) -> AddressClass = { AddressClass(ip: $0) }) {
        self.maxBody = maxBody
        self.maxHeaders = maxHeaders
        self.shouldStop = shouldStop
        self.classify = classify
    }

    /// CURLOPT_PREREQFUNCTION: before each request (a redirect's too), the address
    /// connected to; a public first host may not lead to an internal one.
    static let prerequest: eventd_curl_prereq_fn = { context, primary, _, _, _ in
        guard let context else { return eventd_curl_prereqfunc_abort }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let address = primary.map { String(cString: $0) } ?? ""
        let now = transfer.classify(address)
        guard let first = transfer.firstClass else {
            transfer.firstClass = now
            return eventd_curl_prereqfunc_ok
        }
        guard RedirectPolicy.allows(first: first, next: now) else {
            transfer.refusedAddress = address
            return eventd_curl_prereqfunc_abort
        }
        return eventd_curl_prereqfunc_ok
    }

    /// Whether a header value may be stored and sent back: no control characters (a CR
    /// or LF would end the header line it is sent in, and start another).
    static func isSafeHeaderValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
    }

    /// CURLOPT_XFERINFOFUNCTION: non-zero aborts (CURLE_ABORTED_BY_CALLBACK).
    static let progress: eventd_curl_progress_fn = { context, _, _, _, _ in
        guard let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        guard transfer.shouldStop?() == true else { return 0 }
        transfer.stopped = true
        return 1
    }

    /// CURLOPT_WRITEFUNCTION: returning less than given aborts (CURLE_WRITE_ERROR).
    static let receiveBody: eventd_curl_data_fn = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let n = size * count
        guard transfer.body.count + n <= transfer.maxBody else {
            transfer.bodyOverflow = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: n) {
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
        }
        return n
    }

    /// CURLOPT_HEADERFUNCTION: one header line per call.
    static let receiveHeader: eventd_curl_data_fn = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let n = size * count
        transfer.headerBytes += n
        guard transfer.headerBytes <= transfer.maxHeaders else {
            transfer.headerOverflow = true
            return 0
        }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: n) {
            String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
        }
        transfer.header(line)
        return n
    }

    private func header(_ line: String) {
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect): its validators replace the last ones.
            etag = nil
            lastModified = nil
            body.removeAll(keepingCapacity: true)
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty, value.utf8.count <= 1024, Self.isSafeHeaderValue(value) else { return }
        switch name {
        case "etag": etag = value
        case "last-modified": lastModified = value
        default: break
        }
    }
}
