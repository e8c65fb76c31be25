import Foundation
import CZlib
import Digests

/// The dashboard's files, read once at start into memory and served by exact name: no
/// path from a request ever reaches the file system, so `..` and symlinks mean nothing.
public struct StaticAssets: Sendable {
    /// One file.
    public struct File: Sendable {
        /// The file's content.
        public var bytes: [UInt8]
        /// Its `Content-Type`.
        public var contentType: String
        /// The content gzipped, made once at start; nil where that saves nothing (images).
        public var gzipped: [UInt8]?
        /// Its strong validator: a quoted SHA-256 prefix of the content (the gzipped
        /// representation's has `-gz` added, as the two are different bytes).
        public var etag: String

        /// A file with this content and type.
        public init(bytes: [UInt8], contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
            etag = "\"" + SHA256.hexDigest(bytes).prefix(32) + "\""
            let zipped = StaticAssets.gzip(bytes)
            gzipped = zipped.map { $0.count < bytes.count } == true ? zipped : nil
        }

        /// The validator of the representation `gzipped` says.
        public func etag(gzipped: Bool) -> String { gzipped ? String(etag.dropLast()) + "-gz\"" : etag }
    }

    /// `bytes` in the gzip format (RFC 1952), best compression; nil if zlib fails.
    static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
        guard deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Why the assets could not be loaded.
    public struct LoadError: Error, CustomStringConvertible {
        /// What failed (one line).
        public var description: String

        /// An error with this message.
        public init(description: String) { self.description = description }
    }

    private let files: [String: File]

    /// Content types by extension; other files in the directory are not served.
    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                        "css": "text/css; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
                        "json": "application/json", "ico": "image/x-icon"]
    /// The most bytes of one file, and of all of them.
    static let maxFile = 2 << 20
    static let maxTotal = 16 << 20

    /// Files from a dictionary (tests).
    public init(files: [String: File]) { self.files = files }

    /// Every file of a known type directly in `directory` (no subdirectories); it must
    /// hold `index.html`.
    public init(directory: String) throws {
        let fm = FileManager.default
        let names: [String]
        do { names = try fm.contentsOfDirectory(atPath: directory) } catch {
            throw LoadError(description: "cannot read the dashboard's files in \(directory): \(error.localizedDescription)")
        }
        var files: [String: File] = [:]
        var total = 0
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let type = Self.types[(name as NSString).pathExtension] else { continue }
            guard let data = fm.contents(atPath: directory + "/" + name) else { continue }
            guard data.count <= Self.maxFile else { throw LoadError(description: "\(directory)/\(name) is over \(Self.maxFile) bytes") }
            total += data.count
            guard total <= Self.maxTotal else { throw LoadError(description: "the files in \(directory) are over \(Self.maxTotal) bytes") }
            files[name] = File(bytes: [UInt8](data), contentType: type)
        }
        guard files["index.html"] != nil else { throw LoadError(description: "\(directory) has no index.html") }
        self.files = files
    }

    /// The file called `name`, if served.
    public func file(named name: String) -> File? { files[name] }

    /// The names served.
    public var names: [String] { files.keys.sorted() }
}
