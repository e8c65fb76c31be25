import EventStore
import Foundation

/// Turns what `eventctl source add` was given (a URL, a vdir, a vdirsyncer collection
/// directory, a file) into the sources to store, with their names and calendars.
public enum SourcePlanner {
    /// Why a target cannot be a source.
    public enum Problem: Error, CustomStringConvertible, Equatable, Sendable {
        /// Not a URL of a supported scheme, not a path that exists (66 for a path).
        case missing(String)
        /// Exists but cannot be used (unreadable, a special file).
        case unusable(String)
        /// A URL of a scheme eventd does not fetch.
        case unsupported(String)

        public var description: String {
            switch self {
            case .missing(let m), .unusable(let m), .unsupported(let m): return m
            }
        }
    }

    /// The sources for `target`; `calendar` names the calendar (for a collection, the
    /// prefix of each one), `every` is the polling interval of a URL, seconds.
    public static func plan(_ target: String, calendar: String?, every: Int64,
                            workingDirectory: String = FileManager.default.currentDirectoryPath) throws(Problem) -> [LiveSource] {
        if let url = normalizedURL(target) {
            // A URL libcurl can never fetch would be kept and retried forever.
            if let problem = authorityProblem(url) {
                throw .unsupported("malformed URL \(LiveSource.redact(url: target)): \(problem)")
            }
            let name = calendar ?? nameFromURL(url)
            return [LiveSource(name: name, kind: .url, location: url, calendar: name, everySeconds: every)]
        }
        if target.contains("://") {
            throw .unsupported("unsupported URL \(LiveSource.redact(url: target)): use https://, http://, webcal:// or webcals://")
        }
        let path = absolute(target, from: workingDirectory)
        guard let stamp = FileStamp(path: path) else { throw .missing("\(target): no such file or directory") }
        guard access(path, R_OK) == 0 else { throw .missing("\(target): not readable") }
        if stamp.isRegular {
            let name = calendar ?? sanitized(((path as NSString).lastPathComponent as NSString).deletingPathExtension)
            return [LiveSource(name: name, kind: .file, location: path, calendar: name, everySeconds: LiveSourceDefaults.every)]
        }
        guard stamp.isDirectory else { throw .unusable("\(target): not a file or directory") }
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        let hasCalendars = entries.contains(where: SourceSyncer.isCalendarFileName)
        let subdirectories = entries.filter { !$0.hasPrefix(".") && FileStamp(path: path + "/" + $0)?.isDirectory == true }
        if !hasCalendars, !subdirectories.isEmpty {
            // vdirsyncer's collection layout: one vdir per subdirectory.
            return subdirectories.map { sub in
                let own = vdirName(path + "/" + sub)
                let name = calendar.map { sanitized($0 + "-" + own) } ?? own
                return LiveSource(name: name, kind: .vdir, location: path + "/" + sub, calendar: name, everySeconds: LiveSourceDefaults.every)
            }
        }
        let name = calendar ?? vdirName(path)
        return [LiveSource(name: name, kind: .vdir, location: path, calendar: name, everySeconds: LiveSourceDefaults.every)]
    }

    /// `https://…` for http(s) and webcal(s) URLs (webcal means https), else nil.
    public static func normalizedURL(_ text: String) -> String? {
        guard let range = text.range(of: "://") else { return nil }
        let scheme = text[..<range.lowerBound].lowercased()
        let rest = text[range.upperBound...]
        guard !rest.isEmpty else { return nil }
        switch scheme {
        case "http", "https": return scheme + "://" + rest
        case "webcal", "webcals": return "https://" + rest
        default: return nil
        }
    }

    /// What is wrong with the host and port of `url` (`scheme://[USERINFO@]HOST[:PORT]…`),
    /// or nil: a host is needed, an IPv6 one in closed brackets, a port in 1...65535.
    static func authorityProblem(_ url: String) -> String? {
        let rest = url[url.range(of: "://")!.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "an IPv6 address without its closing ]" }
            guard authority.index(after: authority.startIndex) < close else { return "no host" }
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "text after the IPv6 address" }
                port = after.dropFirst()
            }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let host = parts.first, !host.isEmpty else { return "no host" }
            if parts.count == 2 { port = parts[1] }
        }
        if let port, !port.isEmpty {
            guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), port.count <= 5, let n = Int(port), (1...65_535).contains(n) else {
                return "the port must be a number in 1...65535"
            }
        }
        return nil
    }

    /// A vdir's name: its `displayname` file (vdirsyncer writes it), else the directory's.
    static func vdirName(_ path: String) -> String {
        if let data = FileManager.default.contents(atPath: path + "/displayname"), data.count <= 1024 {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { return sanitized(text) }
        }
        return sanitized((path as NSString).lastPathComponent)
    }

    /// The URL path's last part without extension, else the host: never the token.
    static func nameFromURL(_ url: String) -> String {
        var rest = Substring(url[url.range(of: "://")!.upperBound...])
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        let parts = rest.split(separator: "/")
        let host = parts.first.map { String($0.split(separator: "@").last ?? $0) } ?? "calendar"
        // The last path word that is neither a secret nor a word every such link has
        // (Nextcloud's `…/public-calendars/TOKEN?export`, Google's `…/private-KEY/basic.ics`),
        // else the host: a link's secret never becomes the name everyone sees (source
        // list, status, /api/status, the log).
        for (index, part) in parts.enumerated().dropFirst().reversed() {
            let word = index == parts.count - 1 ? (String(part) as NSString).deletingPathExtension : String(part)
            guard !word.isEmpty, !genericPathWords.contains(word.lowercased()), !looksSecret(word) else { continue }
            return sanitized(word)
        }
        return sanitized(host)
    }

    /// Path words of calendar links that name no calendar.
    static let genericPathWords: Set<String> = ["basic", "full", "export", "ical", "public-calendars", "remote.php", "dav", "caldav"]

    /// Whether a path word may be a credential: letters and digits interleaved (8
    /// characters or more, switching between the two at least 3 times: `k2nMr3D5c5k4kLPF`,
    /// `private-0a1b2c3d`; not `school_2026`), 16 or more hex digits, a long run (over
    /// 32), or an escape, `@` or `=` (an address, base64).
    static func looksSecret(_ word: String) -> Bool {
        if word.count > 32 || word.contains(where: { $0 == "%" || $0 == "@" || $0 == "=" }) { return true }
        if word.count >= 16, word.allSatisfy(\.isHexDigit) { return true }
        var switches = 0
        var lastWasDigit: Bool?
        for c in word where c.isLetter || c.isNumber {
            if let last = lastWasDigit, last != c.isNumber { switches += 1 }
            lastWasDigit = c.isNumber
        }
        return word.count >= 8 && switches >= 3
    }

    /// The name with every character outside `A-Z a-z 0-9 . _ -` made `-`, at most 64.
    public static func sanitized(_ text: String) -> String {
        let mapped = String(text.unicodeScalars.map { s -> Character in
            let ok = (s.value < 128) && (CharacterSet.alphanumerics.contains(s) || s == "." || s == "_" || s == "-")
            return ok ? Character(s) : "-"
        }.prefix(64))
        return mapped.isEmpty ? "calendar" : mapped
    }

    static func absolute(_ path: String, from directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        return (joined as NSString).standardizingPath
    }
}
