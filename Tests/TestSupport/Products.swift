import Foundation

/// Where the programs under test and the helper tools are.
public enum Products {
    /// The directory holding the built products (`eventd`, `eventctl`), found by walking
    /// up from the test bundle; `.build/debug` of the repository when not found.
    public static let directory: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("eventctl").path),
               FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("eventd").path) {
                return url
            }
        }
        return repositoryRoot.appendingPathComponent(".build/debug")
    }()

    /// The built `eventd`.
    public static var eventd: String { path("eventd") }
    /// The built `eventctl`.
    public static var eventctl: String { path("eventctl") }

    /// The path of the built product `name`. For `eventd-web`, its dashboard is there too:
    /// it reads `share/eventd/web` beside its real file's `bin/` directory (here the build
    /// directory's parent, `.build/TRIPLE/share/eventd/web`), linked to `web/` once.
    public static func path(_ name: String) -> String {
        if name == "eventd-web" { _ = dashboardLinked }
        return directory.appendingPathComponent(name).path
    }

    /// `share/eventd/web` beside the build directory, a link to the repository's `web/`.
    private static let dashboardLinked: Bool = {
        let share = directory.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("share/eventd")
        let link = share.appendingPathComponent("web").path
        if FileManager.default.fileExists(atPath: link + "/index.html") { return true }
        try? FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: link)
        return (try? FileManager.default.createSymbolicLink(atPath: link,
                                                            withDestinationPath: repositoryRoot.appendingPathComponent("web").path)) != nil
    }()

    /// The repository root (this file is `Tests/TestSupport/Products.swift`).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The first executable called `name` in `directories`, then on `PATH`, then in the
    /// usual system directories.
    public static func which(_ name: String, preferring directories: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let all = directories + path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        for directory in all where !directory.isEmpty {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
