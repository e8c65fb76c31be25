import Foundation
import Testing
@testable import WebGateway

/// Issue 56: the dashboard's files go gzipped to a browser that takes gzip, with a strong
/// validator per representation, `no-cache`, and 304 without a body for a current copy;
/// data answers keep `no-store`.
@Suite struct GatewayAssetCachingTests {
    static let script = Array(String(repeating: "export const word = 'a fairly repetitive script';\n", count: 200).utf8)
    static let assets = StaticAssets(files: [
        "index.html": .init(bytes: Array("<!doctype html>".utf8), contentType: "text/html; charset=utf-8"),
        "app.js": .init(bytes: script, contentType: "text/javascript; charset=utf-8"),
    ])

    func harness() -> GatewayHarness {
        var h = GatewayHarness()
        h.gateway = Gateway(config: h.gateway.config, assets: Self.assets, now: h.now)
        return h
    }

    func field(_ name: String, _ text: String) -> String? {
        text.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
            .first { $0.lowercased().hasPrefix(name.lowercased() + ": ") }.map { String($0.dropFirst(name.count + 2)) }
    }

    @Test func aScriptGoesGzippedAndRevalidatesWith304() throws {
        var h = harness()
        let plain = h.output(h.request("/app.js"))
        #expect(plain.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(field("Content-Encoding", plain) == nil)
        #expect(field("Cache-Control", plain) == "no-cache")
        #expect(field("Vary", plain) == "Accept-Encoding")
        #expect(plain.hasSuffix(String(decoding: Self.script, as: UTF8.self)))
        let plainTag = try #require(field("ETag", plain))

        let id = h.request("/app.js", headers: ["Accept-Encoding: gzip, deflate, br, zstd"])
        let zippedText = h.output(id)
        #expect(field("Content-Encoding", zippedText) == "gzip")
        let zippedTag = try #require(field("ETag", zippedText))
        #expect(zippedTag != plainTag && zippedTag.hasPrefix("\"") && zippedTag.hasSuffix("\""))
        let length = try #require(field("Content-Length", zippedText).flatMap { Int($0) })
        #expect(length < Self.script.count / 10, "\(length) bytes gzipped of \(Self.script.count)")
        // The body is gzip (magic 1f 8b) and unpacks to the script (gunzip(1) reads it).
        let body = Array(try #require(h.written[id])).suffix(length)
        #expect(Array(body.prefix(2)) == [0x1f, 0x8b])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("asset-\(UUID().uuidString.prefix(8)).gz").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(body).write(to: URL(fileURLWithPath: file))
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gunzip.arguments = ["-dc", file]
        let pipe = Pipe()
        gunzip.standardOutput = pipe
        try gunzip.run()
        let unpacked = pipe.fileHandleForReading.readDataToEndOfFile()
        gunzip.waitUntilExit()
        #expect(Array(unpacked) == Self.script)

        // The browser's copy is current: 304, no body, the same validator.
        for (encoding, tag) in [("gzip", zippedTag), ("identity", plainTag)] {
            let text = h.output(h.request("/app.js", headers: ["Accept-Encoding: \(encoding)", "If-None-Match: \"other\", W/\(tag)"]))
            #expect(text.hasPrefix("HTTP/1.1 304 Not Modified\r\n"), "\(text)")
            #expect(text.hasSuffix("\r\n\r\n") && field("Content-Length", text) == nil)
            #expect(field("ETag", text) == tag)
        }
        // A stale copy, or the other representation's tag: the whole file.
        #expect(h.status(h.request("/app.js", headers: ["If-None-Match: \"stale\""])) == 200)
        #expect(h.status(h.request("/app.js", headers: ["If-None-Match: \(zippedTag)"])) == 200)
        // gzip refused with q=0: not gzipped.
        #expect(field("Content-Encoding", h.output(h.request("/app.js", headers: ["Accept-Encoding: gzip;q=0, br"]))) == nil)
    }

    @Test func dataAnswersStayNoStore() {
        var h = harness()
        #expect(field("Cache-Control", h.output(h.request("/nosuch.js"))) == "no-store")
        #expect(field("Cache-Control", h.output(h.request("/", method: "POST"))) == "no-store")
    }
}
