import Diagnostics
import Foundation
import Testing

/// scripts/install.sh installs exactly the documented tree and uninstalls it.
@Suite struct InstallTests {
    /// Installed file (relative to PREFIX) -> its source in the repository (nil: a binary).
    static let manifest: [String: String?] = [
        "bin/eventd": nil,
        "bin/eventctl": nil,
        "bin/eventd-web": nil,
        "lib/systemd/system/eventd-web.service": "systemd/eventd-web.service",
        "lib/systemd/system/eventd-web.socket": "systemd/eventd-web.socket",
        "lib/systemd/system/eventd-web-upstream.service": "systemd/eventd-web-upstream.service",
        "lib/systemd/system/eventd-web-upstream.socket": "systemd/eventd-web-upstream.socket",
        "lib/systemd/user/eventd-web.service": "systemd/user/eventd-web.service",
        "lib/systemd/user/eventd-web.socket": "systemd/user/eventd-web.socket",
        "lib/systemd/user/eventctl-remind.service": "systemd/user/eventctl-remind.service",
        "share/man/man1/eventd-web.1": "man/eventd-web.1",
        "share/eventd/web/index.html": "web/index.html",
        "share/eventd/web/app.js": "web/app.js",
        "share/eventd/web/feed.js": "web/feed.js",
        "share/eventd/web/render.js": "web/render.js",
        "share/eventd/web/motion.js": "web/motion.js",
        "share/eventd/web/controls.js": "web/controls.js",
        "share/eventd/web/format.js": "web/format.js",
        "share/eventd/web/keyboard.js": "web/keyboard.js",
        "share/eventd/web/sheet.js": "web/sheet.js",
        "share/eventd/web/style.css": "web/style.css",
        "share/eventd/web/layout.css": "web/layout.css",
        "share/eventd/web/favicon.svg": "web/favicon.svg",
        "share/doc/eventd/statusbar/waybar-config.jsonc": "docs/statusbar/waybar-config.jsonc",
        "share/doc/eventd/statusbar/waybar-style.css": "docs/statusbar/waybar-style.css",
        "share/doc/eventd/statusbar/i3bar.md": "docs/statusbar/i3bar.md",
        "share/doc/eventd/protocol.md": "docs/protocol.md",
        "share/doc/eventd/feed_client.py": "docs/feed_client.py",
        "lib/systemd/system/eventd.service": "systemd/eventd.service",
        "lib/systemd/system/eventd.socket": "systemd/eventd.socket",
        "lib/systemd/user/eventd.service": "systemd/user/eventd.service",
        "lib/systemd/user/eventd.socket": "systemd/user/eventd.socket",
        "lib/sysusers.d/eventd.conf": "systemd/eventd.sysusers",
        "share/man/man1/eventd.1": "man/eventd.1",
        "share/man/man1/eventctl.1": "man/eventctl.1",
        "share/bash-completion/completions/eventctl": "completions/eventctl.bash",
        "share/zsh/site-functions/_eventctl": "completions/_eventctl",
        "share/fish/vendor_completions.d/eventctl.fish": "completions/eventctl.fish",
    ]

    static var script: String { Ship.source("scripts/install.sh").path }

    static func install(prefix: String, destdir: URL) throws -> Ship.Result {
        try Ship.run("/bin/sh", [script, "install", prefix, destdir.path, Ship.productsDirectory.path])
    }

    static func uninstall(prefix: String, destdir: URL) throws -> Ship.Result {
        try Ship.run("/bin/sh", [script, "uninstall", prefix, destdir.path])
    }

    @Test(arguments: ["/usr/local", "/opt/eventd"])
    func installsExactlyTheTreeThenUninstallsIt(prefix: String) throws {
        let destdir = try Ship.temporaryDirectory("destdir")
        defer { Ship.cleanUp(destdir) }
        let r = try Self.install(prefix: prefix, destdir: destdir)
        #expect(r.status == 0, "install failed:\n\(r.stdout)\(r.stderr)")

        let expected = Set(Self.manifest.keys.map { String(prefix.dropFirst()) + "/" + $0 })
        #expect(Ship.files(below: destdir) == expected)

        let base = destdir.path + prefix
        for (target, source) in Self.manifest {
            let path = base + "/" + target
            guard let source else {
                // The binaries: executable, and the ones we built.
                #expect(Ship.mode(path) == 0o755, "\(target) mode")
                #expect(FileManager.default.isExecutableFile(atPath: path), "\(target) is not executable")
                let built = Ship.productsDirectory.appendingPathComponent((target as NSString).lastPathComponent).path
                #expect(FileManager.default.contentsEqual(atPath: path, andPath: built), "\(target) differs from \(built)")
                continue
            }
            #expect(Ship.mode(path) == 0o644, "\(target) mode")
            let installed = try String(contentsOfFile: path, encoding: .utf8)
            var original = try Ship.read(source)
            if target.hasSuffix(".service") {
                // ExecStart= is rewritten for the prefix; nothing else changes.
                // The program is the unit's name, but for eventctl-remind.service (it runs
                // `eventctl remind`) and eventd-web-upstream.service (`eventd-web --upstream`).
                let unit = (target as NSString).lastPathComponent.replacingOccurrences(of: ".service", with: "")
                let program = ["eventctl-remind": "eventctl", "eventd-web-upstream": "eventd-web"][unit] ?? unit
                original = original.replacingOccurrences(of: "\nExecStart=/usr/local/bin/\(program)",
                                                          with: "\nExecStart=\(prefix)/bin/\(program)")
                #expect(installed.split(separator: "\n").contains { $0.hasPrefix("ExecStart=\(prefix)/bin/\(program)") }, "\(target)")
            }
            #expect(installed == original, "\(target) differs from \(source)")
        }
        let version = try Ship.run(base + "/bin/eventctl", ["--version"])
        #expect(version.stdout == "eventctl \(ProductVersion.number)\n")

        // Something else in the same tree survives the uninstall.
        let other = destdir.appendingPathComponent(String(prefix.dropFirst()) + "/bin/other-tool")
        try "#!/bin/sh\n".write(to: other, atomically: true, encoding: .utf8)

        let u = try Self.uninstall(prefix: prefix, destdir: destdir)
        #expect(u.status == 0, "uninstall failed:\n\(u.stdout)\(u.stderr)")
        #expect(Ship.files(below: destdir) == [String(prefix.dropFirst()) + "/bin/other-tool"])

        // Uninstalling again is harmless.
        #expect(try Self.uninstall(prefix: prefix, destdir: destdir).status == 0)
    }

    @Test func installRefusesAMissingBuildAndBadArguments() throws {
        let destdir = try Ship.temporaryDirectory("destdir")
        defer { Ship.cleanUp(destdir) }
        let missing = try Ship.run("/bin/sh", [Self.script, "install", "/usr/local", destdir.path, destdir.path + "/no-build"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("make release"), "\(missing.stderr)")
        #expect(Ship.files(below: destdir).isEmpty)

        #expect(try Ship.run("/bin/sh", [Self.script]).status == 64)
        #expect(try Ship.run("/bin/sh", [Self.script, "frobnicate", "/usr/local", ""]).status == 64)
        #expect(try Ship.run("/bin/sh", [Self.script, "uninstall", "/usr/local"]).status == 64)
        let relative = try Ship.run("/bin/sh", [Self.script, "install", "usr/local", destdir.path, Ship.productsDirectory.path])
        #expect(relative.status != 0)
        #expect(relative.stderr.contains("absolute"), "\(relative.stderr)")
    }
}
