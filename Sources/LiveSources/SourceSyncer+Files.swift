import EventStore
import Foundation

extension SourceSyncer {
    /// Most files a vdir may hold; more is reported as an error (nothing is read).
    static let maxFilesPerVdir = 100_000

    /// Synchronises a vdir or watched file at `now` (Unix seconds): files whose stamp
    /// changed are read and imported (one that fails to parse keeps its previous events
    /// and is reported), files gone are removed, unchanged files are not read.
    public func syncFiles(_ source: LiveSource, now: Int64) -> SyncReport {
        var source = source
        source.state.lastAttempt = now
        let files: [String]
        do {
            files = try listFiles(source)
        } catch {
            return failed(source, error)
        }
        var known = stamps[source.name] ?? [:]
        var current: [String: FileStamp] = [:]
        var inputs: [ImportInput] = []
        var problems: [String] = []
        for path in files {
            guard let stamp = FileStamp(path: path), stamp.isRegular else { continue }
            current[path] = stamp
            if known[path] == stamp { continue }
            guard stamp.size <= maxFileBytes else {
                problems.append("\(path): over \(maxFileBytes >> 20) MiB, not read")
                continue
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                problems.append("\(path): cannot be read")
                continue
            }
            inputs.append(ImportInput(path: path, displayName: path, bytes: [UInt8](data), calendar: source.calendar,
                                      liveSource: source.name))
        }
        var results: [FileImportResult] = []
        var failedPaths = Set<String>()
        do {
            results = try store.importCalendars(inputs, now: now)
        } catch {
            // One file spoils the batch: import them one by one, so that each bad file
            // keeps its previous events and the good ones go in.
            for input in inputs {
                do {
                    results += try store.importCalendars([input], now: now)
                } catch {
                    failedPaths.insert(input.path)
                    problems.append(FetchFailure.oneLine("\(error)"))
                }
            }
        }
        var removed = 0
        do {
            let owned = try store.ownedInputPaths(of: source)
            let gone = owned.filter { current[$0] == nil }
            removed = try store.removeInputs(gone, of: source)
        } catch {
            problems.append(FetchFailure.oneLine("cannot remove the events of deleted files: \(error)"))
        }
        // A file that failed is read again next time, even if its stamp stays.
        for path in failedPaths { current[path] = nil }
        known = current
        stamps[source.name] = known
        let changed = results.contains(where: \.changedAnything) || removed > 0
        var summary = Self.describe(results)
        if removed > 0 { summary += summary == "unchanged" ? "; \(removed) removed" : " (\(removed) with deleted files)" }
        if let first = problems.first {
            let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
            var report = failed(source, FetchFailure(.parse, FetchFailure.oneLine(first + more)))
            report.changedEvents = changed
            return report
        }
        return succeeded(source, changed: changed, summary: summary, ttl: nil)
    }

    /// The calendar files of the source: the file itself, or the vdir's `*.ics` files
    /// (dot-files and editors' temporary files left out), sorted.
    func listFiles(_ source: LiveSource) throws(FetchFailure) -> [String] {
        let path = source.location
        guard let stamp = FileStamp(path: path) else {
            throw FetchFailure(.missing, "\(path): no such \(source.kind == .vdir ? "directory" : "file") (events kept until the source is removed)")
        }
        if source.kind == .file {
            guard stamp.isRegular else { throw FetchFailure(.unreadable, "\(path): not a regular file") }
            return [path]
        }
        guard stamp.isDirectory else { throw FetchFailure(.unreadable, "\(path): not a directory") }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw FetchFailure(.unreadable, "\(path): cannot list the directory")
        }
        let calendars = names.filter(Self.isCalendarFileName)
        guard calendars.count <= Self.maxFilesPerVdir else {
            throw FetchFailure(.unreadable, "\(path): more than \(Self.maxFilesPerVdir) files")
        }
        let root = Self.realPath(path) ?? path
        return calendars.sorted().map { path + "/" + $0 }.filter { Self.staysInside($0, root: root) }
    }

    /// Whether `file` is not a symbolic link, or one that leads to a file inside the
    /// directory `root` (resolved): a vdir's link to elsewhere (another account's file,
    /// `/etc/…`) is not followed.
    static func staysInside(_ file: String, root: String) -> Bool {
        var st = stat()
        guard lstat(file, &st) == 0 else { return false }
        guard (st.st_mode & S_IFMT) == S_IFLNK else { return true }
        guard let target = realPath(file) else { return false }
        return target.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `path` with every link resolved, or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `*.ics`, not hidden, not a temporary file.
    static func isCalendarFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && !name.hasSuffix("~") && name.lowercased().hasSuffix(".ics")
    }
}
