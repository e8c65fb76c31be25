import Foundation
import CanonicalJSON
#if canImport(Glibc)
import Glibc
#endif

/// Debian's headless Chromium driven through Debian's chromedriver with the W3C
/// WebDriver HTTP API (no browser download, no Python): navigate, run scripts in the
/// page, take screenshots. The driver is started with a `DaemonHarness` and stopped
/// with it.
// @unchecked: a session belongs to one test body, which uses it from one task at a time.
public final class WebDriverSession: @unchecked Sendable {
    /// chromedriver, if installed (`make deps` installs `chromium-driver`).
    public static let driverPath: String? = Products.which("chromedriver")
    /// The browser binary: Debian's real one, not its shell wrapper.
    public static let browserPath: String? = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Whether the browser tests can run here.
    public static var isAvailable: Bool { driverPath != nil && browserPath != nil }

    let port: UInt16
    let session: String

    private init(port: UInt16, session: String) {
        self.port = port
        self.session = session
    }

    /// Starts chromedriver and a headless browser session (window `width`x`height`, and
    /// further browser `arguments` such as `--lang=de-DE`).
    public static func start(with daemon: DaemonHarness, width: Int = 1280, height: Int = 1000,
                             arguments extra: [String] = []) async throws -> WebDriverSession {
        guard let driver = driverPath, let browser = browserPath else { throw HarnessError("chromium or chromedriver is missing") }
        let port = try WebGatewayHarness.freePort()
        let logPath = daemon.directory + "/chromedriver.log"
        var env = ChildProcess.isolatedEnvironment()
        env["HOME"] = daemon.directory
        _ = try daemon.spawnOther(driver, ["--port=\(port)"], environment: env, output: logPath)
        // Its start is not a timed step: on a machine busy with other suites it took over 20 s.
        let deadline = monotonicNow() + 60
        while (try? await request(port: port, "GET", "/status")) == nil {
            if monotonicNow() >= deadline { throw HarnessError("chromedriver did not answer within 60 s") }
            try await pause(0.05)
        }
        let arguments: [JSONValue] = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                      "--no-first-run", .string("--user-data-dir=\(daemon.directory)/chromium-profile"),
                                      .string("--window-size=\(width),\(height)")] + extra.map { .string($0) }
        let capabilities: JSONValue = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:chromeOptions": ["binary": .string(browser), "args": .array(arguments)],
        ]]]
        let answer = try await request(port: port, "POST", "/session", capabilities, timeout: 60)
        guard let id = answer["sessionId"]?.stringValue else { throw HarnessError("no session: \(answer)") }
        return WebDriverSession(port: port, session: id)
    }

    /// Runs `body` with a new session and ends the session after it, also when it throws
    /// (chromedriver itself goes with the daemon harness).
    ///
    /// At most `BrowserSlots.shared.limit` browsers run at once: the browser suites run in
    /// parallel, and eighteen Chromiums on two cores left a WebDriver command unanswered
    /// for 30 s. The wait for a slot comes before any timed step.
    public static func with(_ daemon: DaemonHarness, width: Int = 1280, height: Int = 1000, arguments: [String] = [],
                            _ body: (WebDriverSession) async throws -> Void) async throws {
        await BrowserSlots.shared.acquire()
        let session: WebDriverSession
        do {
            session = try await start(with: daemon, width: width, height: height, arguments: arguments)
        } catch {
            await BrowserSlots.shared.release()
            throw error
        }
        do {
            try await body(session)
        } catch {
            await session.quit()
            await BrowserSlots.shared.release()
            throw error
        }
        await session.quit()
        await BrowserSlots.shared.release()
    }

    /// Opens `url` (returns when the page's load event fired).
    public func open(_ url: String) async throws {
        _ = try await call("POST", "url", ["url": .string(url)])
    }

    /// Opens a new tab, makes it the current one and opens `url` in it (a second tab of
    /// the same profile: same cookies and local storage, its own session storage).
    public func openInNewTab(_ url: String) async throws {
        guard let handle = try await call("POST", "window/new", ["type": "tab"])?["handle"]?.stringValue else {
            throw HarnessError("no new tab")
        }
        _ = try await call("POST", "window", ["handle": .string(handle)])
        try await open(url)
    }

    /// Opens a new window of the same browser (visible, not a background tab), makes it
    /// the current one, opens `url` in it and returns its handle.
    @discardableResult
    public func openInNewWindow(_ url: String) async throws -> String {
        guard let handle = try await call("POST", "window/new", ["type": "window"])?["handle"]?.stringValue else {
            throw HarnessError("no new window")
        }
        try await switchTo(handle)
        try await open(url)
        return handle
    }

    /// The current window's handle.
    public func currentWindow() async throws -> String {
        guard let handle = try await call("GET", "window")?.stringValue else { throw HarnessError("no current window") }
        return handle
    }

    /// Makes the window `handle` the current one.
    public func switchTo(_ handle: String) async throws {
        _ = try await call("POST", "window", ["handle": .string(handle)])
    }

    /// Brings the current window's page to the front (a tab hidden behind another one
    /// becomes visible: `visibilitychange`).
    public func bringToFront() async throws {
        _ = try await call("POST", "goog/cdp/execute", ["cmd": "Page.bringToFront", "params": [:]])
    }

    /// Closes the current window (another one must be chosen with `switchTo` after it).
    public func closeWindow() async throws {
        _ = try await call("DELETE", "window")
    }

    /// Runs `script` (a function body; `return` gives the result) in the page.
    @discardableResult
    public func run(_ script: String, _ arguments: [JSONValue] = []) async throws -> JSONValue {
        try await call("POST", "execute/sync", ["script": .string(script), "args": .array(arguments)]) ?? .null
    }

    /// Waits until the dashboard is live and has verified the daemon's current state of
    /// `view` (the page speaks protocol 2, so it checks protocol 2's digest).
    public func waitForVerifiedState(of view: JSONValue, in daemon: DaemonHarness) async throws {
        let digest = try await daemon.oneShotSnapshot(view).protocol2Digest
        try await waitFor("the digest \(digest)", """
            const d = window.eventdDashboard; return d.connection === 'live' && d.verified === '\(digest)';
            """)
    }

    /// Waits until `script` returns true in the page; throws after `timeout` with `what`.
    public func waitFor(_ what: String, timeout: Double = 15, _ script: String) async throws {
        let deadline = monotonicNow() + timeout
        while true {
            if try await run(script) == .bool(true) { return }
            if monotonicNow() >= deadline {
                let state = try? await run("return JSON.stringify({c: window.eventdDashboard && window.eventdDashboard.connection, s: window.eventdDashboard && window.eventdDashboard.stats})")
                throw HarnessError("timed out waiting for \(what); page: \(state?.stringValue ?? "?")")
            }
            try await pause(0.05)
        }
    }

    /// Saves a PNG of the viewport to `path`.
    public func screenshot(to path: String) async throws {
        guard let base64 = try await call("GET", "screenshot")?.stringValue, let data = Data(base64Encoded: base64) else {
            throw HarnessError("no screenshot")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Sets emulated media features (`prefers-color-scheme`, `prefers-reduced-motion`)
    /// through the Chrome DevTools Protocol command chromedriver passes on.
    public func emulateMedia(_ features: [String: String]) async throws {
        let list = features.map { JSONValue.object(["name": .string($0.key), "value": .string($0.value)]) }
        _ = try await call("POST", "goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia", "params": ["features": .array(list)]])
    }

    /// Makes the page's viewport `width`x`height` CSS pixels, as a phone's (a headless
    /// window cannot be made narrower than 500 px).
    public func emulateDevice(width: Int, height: Int, mobile: Bool = true) async throws {
        _ = try await call("POST", "goog/cdp/execute", ["cmd": "Emulation.setDeviceMetricsOverride", "params": [
            "width": .int(Int64(width)), "height": .int(Int64(height)), "deviceScaleFactor": 1, "mobile": .bool(mobile)]])
    }

    /// Makes the page's locale (`Intl`'s default) `locale`, such as `de-DE`, for pages
    /// opened from now on.
    public func emulateLocale(_ locale: String) async throws {
        _ = try await call("POST", "goog/cdp/execute", ["cmd": "Emulation.setLocaleOverride", "params": ["locale": .string(locale)]])
    }

    /// Makes `Date.now()` of pages opened from now on start at `iso` (the daemon
    /// harness's fake clock, so that the page's "now" is the daemon's).
    public func setClock(_ iso: String) async throws {
        let source = "{ const shift = Date.parse('\(iso)') - Date.now(), real = Date.now; Date.now = () => real() + shift; }"
        _ = try await call("POST", "goog/cdp/execute", ["cmd": "Page.addScriptToEvaluateOnNewDocument", "params": ["source": .string(source)]])
    }

    /// Presses and releases `key` (a DOM key name: "Escape", " ", "Enter") as the user
    /// would: trusted events, with the browser's default actions (a dialog closes, a
    /// checkbox toggles).
    public func press(_ key: String, code: String, keyCode: Int) async throws {
        for type in ["keyDown", "keyUp"] {
            var params: [String: JSONValue] = ["type": .string(type), "key": .string(key), "code": .string(code),
                                               "windowsVirtualKeyCode": .int(Int64(keyCode))]
            if type == "keyDown", key.count == 1 { params["text"] = .string(key) }
            _ = try await call("POST", "goog/cdp/execute", ["cmd": "Input.dispatchKeyEvent", "params": .object(params)])
        }
    }

    /// Ends the session (the browser exits; chromedriver goes with the harness).
    public func quit() async {
        _ = try? await Self.request(port: port, "DELETE", "/session/\(session)")
    }

    @discardableResult
    private func call(_ method: String, _ command: String, _ body: JSONValue? = nil) async throws -> JSONValue? {
        try await Self.request(port: port, method, "/session/\(session)/\(command)", body)
    }

    /// One WebDriver command: JSON in, the answer's `value` out; WebDriver errors throw.
    static func request(port: UInt16, _ method: String, _ path: String, _ body: JSONValue? = nil,
                        timeout: Double = 30) async throws -> JSONValue {
        let connection = try HTTPConnection(port: port)
        let payload = body.map { $0.canonicalString() } ?? (method == "POST" ? "{}" : "")
        try connection.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                            + "Content-Length: \(payload.utf8.count)\r\nConnection: close\r\n\r\n" + payload)
        // chromedriver says `Connection: close` but keeps the socket open: read by length.
        do {
            try await connection.waitForResponse(timeout: timeout)
        } catch {
            throw HarnessError("WebDriver \(method) \(path) on port \(port): \(error)")
        }
        let answer = try JSONValue.parse(connection.body)
        let value = answer["value"] ?? .null
        if let error = value["error"]?.stringValue {
            throw HarnessError("WebDriver \(method) \(path): \(error): \(value["message"]?.stringValue ?? "")")
        }
        return value
    }
}

/// A counting semaphore for browsers across the test process.
public actor BrowserSlots {
    public static let shared = BrowserSlots(limit: 2)
    public let limit: Int
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = limit
        self.free = limit
    }

    public func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the slot to the longest waiter, or frees it.
    public func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}
