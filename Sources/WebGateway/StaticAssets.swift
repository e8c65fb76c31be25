import Foundation

/// The dashboard's files, read once at start into memory and served by exact name: no
/// path from a request ever reaches the file system, so `..` and symlinks mean nothing.
public struct StaticAssets: Sendable {
    /// One file.
    public struct File: Sendable {
        /// The file's content.
        public var bytes: [UInt8]
        /// Its `Content-Type`.
        public var contentType: String

        /// A file with this content and type.
        public init(bytes: [UInt8], contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
        }
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
