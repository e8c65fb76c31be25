import Foundation
import Testing

/// The units in systemd/ pass `systemd-analyze verify`, and the system services'
/// sandboxes rate an overall exposure of 2.0 (eventd) and 1.0 (eventd-web, and
/// eventd-web-upstream for a gateway host) or lower.
@Suite(.enabled(if: SystemdAnalyze.path != nil,
                "systemd-analyze is not installed: skipping the systemd unit checks"))
struct SystemdUnitTests {
    /// Copies of the units in a temporary directory, ExecStart= pointing at the built
    /// eventd (verify needs an existing binary), and the man pages their
    /// Documentation= names (verify runs `man`).
    struct Staged {
        let root: URL
        var system: URL { root.appendingPathComponent("system") }
        var user: URL { root.appendingPathComponent("user") }
        var manPath: String { root.appendingPathComponent("man").path }

        init() throws {
            root = try Ship.temporaryDirectory("units")
            let fm = FileManager.default
            for (directory, source) in [(system, "systemd"), (user, "systemd/user")] {
                try fm.createDirectory(at: directory, withIntermediateDirectories: true)
                for unit in SystemdUnitTests.units + (source == "systemd/user" ? SystemdUnitTests.userOnlyUnits : SystemdUnitTests.systemOnlyUnits) {
                    let text = try Ship.read("\(source)/\(unit)")
                    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                        // ExecStart=/usr/local/bin/PROGRAM -> the built PROGRAM.
                        guard line.hasPrefix("ExecStart=/usr/local/bin/") else { return String(line) }
                        let program = line.dropFirst("ExecStart=/usr/local/bin/".count)
                        return "ExecStart=" + Ship.productsDirectory.path + "/" + program
                    }
                    try lines.joined(separator: "\n").write(to: directory.appendingPathComponent(unit),
                                                           atomically: true, encoding: .utf8)
                }
            }
            let man1 = root.appendingPathComponent("man/man1")
            try fm.createDirectory(at: man1, withIntermediateDirectories: true)
            for page in ["eventd.1", "eventctl.1", "eventd-web.1"] {
                try fm.copyItem(at: Ship.source("man/\(page)"), to: man1.appendingPathComponent(page))
            }
            let runtime = root.appendingPathComponent("xdg-runtime")
            try fm.createDirectory(at: runtime, withIntermediateDirectories: true,
                                   attributes: [.posixPermissions: 0o700])
        }

        /// `man` resolves Documentation=man:eventd(1) from our pages; without `man`
        /// installed, verify is told not to look.
        var analyzeEnvironment: [String: String] {
            ["MANPATH": manPath, "XDG_RUNTIME_DIR": root.appendingPathComponent("xdg-runtime").path,
             "SYSTEMD_PAGER": "", "SYSTEMD_COLORS": "0"]
        }

        var manOption: [String] { Ship.which("man") == nil ? ["--man=no"] : [] }

        func cleanUp() { Ship.cleanUp(root) }
    }

    static let units = ["eventd.service", "eventd.socket", "eventd-web.service", "eventd-web.socket"]
    /// Units only for the user's manager (the graphical session's reminders).
    static let userOnlyUnits = ["eventctl-remind.service"]
    /// Units only for the system's: a gateway host that reads the feed from Redis.
    static let systemOnlyUnits = ["eventd-web-upstream.service", "eventd-web-upstream.socket"]

    @Test func systemUnitsVerify() throws {
        let staged = try Staged()
        defer { staged.cleanUp() }
        let r = try Ship.run(SystemdAnalyze.path!, ["verify"] + staged.manOption + Self.units + Self.systemOnlyUnits,
                             environment: staged.analyzeEnvironment, directory: staged.system)
        #expect(r.status == 0, "systemd-analyze verify failed:\n\(r.stdout)\(r.stderr)")
        let ours = r.stderrLines.filter { $0.contains("eventd") }
        #expect(ours.isEmpty, "systemd-analyze verify complained:\n\(ours.joined(separator: "\n"))")
    }

    @Test func userUnitsVerify() throws {
        let staged = try Staged()
        defer { staged.cleanUp() }
        let r = try Ship.run(SystemdAnalyze.path!, ["--user", "verify"] + staged.manOption + Self.units + Self.userOnlyUnits,
                             environment: staged.analyzeEnvironment, directory: staged.user)
        #expect(r.status == 0, "systemd-analyze --user verify failed:\n\(r.stdout)\(r.stderr)")
        let ours = r.stderrLines.filter { $0.contains("eventd") }
        #expect(ours.isEmpty, "systemd-analyze --user verify complained:\n\(ours.joined(separator: "\n"))")
    }

    @Test(arguments: [("eventd.service", 2.0), ("eventd-web.service", 1.0), ("eventd-web-upstream.service", 1.0)])
    func systemServiceExposureIsBounded(service: String, bound: Double) throws {
        let staged = try Staged()
        defer { staged.cleanUp() }
        let r = try Ship.run(SystemdAnalyze.path!, ["security", "--offline=yes", "--no-pager",
                                                    staged.system.appendingPathComponent(service).path],
                             environment: staged.analyzeEnvironment, directory: staged.system)
        #expect(r.status == 0, "systemd-analyze security failed:\n\(r.stderr)")
        let exposure = try #require(SystemdAnalyze.overallExposure(r.stdout + r.stderr),
                                    "no overall exposure in:\n\(r.stdout)\(r.stderr)")
        print("ShipTests: systemd-analyze security --offline=yes systemd/\(service): overall exposure \(exposure)")
        #expect(exposure <= bound, "overall exposure \(exposure) > \(bound):\n\(r.stdout)")
    }
}

/// What the unit files promise, checked without systemd.
@Suite struct UnitFileTests {
    @Test func unitsStillPointAtTheInstallPlaceholder() throws {
        // scripts/install.sh rewrites exactly this line for the chosen PREFIX.
        for (unit, program) in [("systemd/eventd.service", "eventd"), ("systemd/user/eventd.service", "eventd"),
                                ("systemd/eventd-web.service", "eventd-web --allow-group eventd"),
                                ("systemd/user/eventd-web.service", "eventd-web")] {
            let lines = try Ship.read(unit).split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("ExecStart=") }.map(String.init) == ["ExecStart=/usr/local/bin/\(program)"], "\(unit)")
        }
    }

    @Test func theDashboardListensOnLoopbackAndReachesTheFeedSocket() throws {
        for unit in ["systemd/eventd-web.socket", "systemd/user/eventd-web.socket"] {
            let lines = try Ship.read(unit).split(separator: "\n").map(String.init)
            #expect(lines.contains("ListenStream=127.0.0.1:8787"), "\(unit)")
        }
        let system = try Ship.read("systemd/eventd-web.service").split(separator: "\n").map(String.init)
        #expect(system.contains("SupplementaryGroups=eventd"))
        #expect(system.contains("Environment=EVENTD_SOCKET=/run/eventd/feed.sock"))
        let user = try Ship.read("systemd/user/eventd-web.service").split(separator: "\n").map(String.init)
        #expect(user.contains("Environment=EVENTD_SOCKET=%t/eventd/feed.sock"))
    }

    @Test func socketUnitsListenWhereEventctlLooks() throws {
        // The system socket is /run/eventd/feed.sock, the user one
        // $XDG_RUNTIME_DIR/eventd/feed.sock: RUNTIME_DIRECTORY/feed.sock of the service.
        for unit in ["systemd/eventd.socket", "systemd/user/eventd.socket"] {
            let lines = try Ship.read(unit).split(separator: "\n").map(String.init)
            #expect(lines.contains("ListenStream=%t/eventd/feed.sock"), "\(unit)")
        }
        for unit in ["systemd/eventd.service", "systemd/user/eventd.service"] {
            let lines = try Ship.read(unit).split(separator: "\n").map(String.init)
            #expect(lines.contains("RuntimeDirectory=eventd"), "\(unit)")
            // Without it, stopping the service deletes the socket .socket still listens on.
            #expect(lines.contains("RuntimeDirectoryPreserve=yes"), "\(unit)")
        }
        let system = try Ship.read("systemd/eventd.socket").split(separator: "\n").map(String.init)
        #expect(system.contains("SocketMode=0660"))
        #expect(system.contains("SocketGroup=eventd"))
    }
}

enum SystemdAnalyze {
    static let path: String? = Ship.which("systemd-analyze")

    /// The number in "→ Overall exposure level for eventd.service: 0.3 SAFE".
    static func overallExposure(_ output: String) -> Double? {
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: "Overall exposure level for ") else { continue }
            let rest = line[range.upperBound...]
            guard let colon = rest.firstIndex(of: ":") else { continue }
            let number = rest[rest.index(after: colon)...].drop(while: { $0 == " " }).prefix(while: { $0.isNumber || $0 == "." })
            return Double(number)
        }
        return nil
    }
}
