import CNcursesw
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The terminal through ncursesw, the one owner of its `SCREEN`: terminfo for every
/// sequence (none written by hand), curses' minimal update (each `draw` sends only the
/// cells that differ from what the terminal shows), keys and the mouse wheel decoded.
/// `end()` restores the terminal (alternate screen left, cursor shown, modes reset).
public final class CursesScreen {
    /// Why the watch cannot run on this terminal.
    public struct Unsupported: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private let screen: OpaquePointer
    private var ended = false
    /// The colours the terminal gets.
    public let depth: CalendarPalette.Depth
    /// Calendar colours (names learnt as events arrive).
    public var palette: CalendarPalette
    private var pairs: [Int64: Int32] = [:]
    /// `TERM` as asked and the type drawn for instead, when terminfo does not know it.
    public let substitute: (asked: String, used: String)?
    /// The types tried, in order, for a `TERM` terminfo does not know (kitty, foot,
    /// alacritty or xterm-direct without their entries): most terminals speak xterm's
    /// sequences, and every one vt100's.
    public static let fallbackTypes = ["xterm-256color", "vt100"]

    /// Takes over the terminal on standard input and output, with the mouse reported
    /// (the wheel) only when `mouse`. Throws `Unsupported` when either is not a
    /// terminal, no type is known to terminfo, or the terminal cannot address the cursor.
    public init(environment: [String: String], palette: CalendarPalette, mouse: Bool = false) throws {
        guard isatty(0) != 0, isatty(1) != 0 else {
            throw Unsupported(description: "standard input and output must be a terminal")
        }
        setlocale(LC_ALL, "")
        if String(cString: eventd_codeset()) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        let asked = environment["TERM"] ?? ""
        var made = Self.newDirectColorTerm(environment: environment) ?? eventd_newterm_stdio()
        var used: String?
        for type in Self.fallbackTypes where made == nil {
            made = eventd_newterm_type(type)
            if made != nil { used = type }
        }
        guard let made else {
            throw Unsupported(description: "the terminal '\(asked)' is unknown to terminfo, as are \(Self.fallbackTypes.joined(separator: " and "))")
        }
        substitute = used.map { (asked, $0) }
        screen = made
        let cup = tigetstr("cup")
        if cup == nil || Int(bitPattern: cup) == -1 {
            endwin()
            delscreen(made)
            throw Unsupported(description: "the terminal '\(environment["TERM"] ?? "")' cannot move the cursor")
        }
        self.palette = palette
        // terminfo's count: curses' COLORS is set only once colours have started.
        depth = CalendarPalette.depth(environment: environment, terminalColors: has_colors() ? Int(max(0, tigetnum("colors"))) : 0)
        if depth != .none {
            start_color()
            use_default_colors()
        }
        raw()
        noecho()
        nonl()
        keypad(eventd_stdscr(), true)
        nodelay(eventd_stdscr(), true)
        curs_set(0)
        set_escdelay(25)
        // Off unless asked for: while a terminal reports the mouse, selecting text needs Shift.
        if mouse {
            _ = mousemask(mmask_t(eventd_mouse_wheel_up() | eventd_mouse_wheel_down()), nil)
            mouseinterval(0)
        }
        TerminalRestore.prepare()
    }

    deinit { end() }

    /// The terminfo name of `TERM` with direct colour (`CalendarPalette.directColorEntry`).
    static let directColorType = "eventctl-direct"

    /// With COLORTERM=truecolor on a type of 256 colours: curses on `TERM`'s own entry
    /// with direct colour, compiled by `tic` into a directory of this run's (removed once
    /// curses has read it); nil when not asked for or when that cannot be done (no
    /// `tic`): `TERM` as it is. Curses then sends the 24-bit colours itself, and so keeps
    /// its minimal update: SGR 38;2 written by hand would go behind its back (it repaints
    /// a cell in the colour it believes in), and the xterm-direct entry is missing from
    /// many systems (Debian's ncurses-base), is the colon form that not every terminal
    /// setting COLORTERM reads, and would replace the rest of `TERM`'s capabilities.
    static func newDirectColorTerm(environment: [String: String]) -> OpaquePointer? {
        let term = environment["TERM"] ?? ""
        guard CalendarPalette.wantsDirectColor(environment: environment, terminalColors: Int(eventd_terminfo_colors(term))),
              let source = CalendarPalette.directColorEntry(name: directColorType, base: term) else { return nil }
        let paths = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        guard let tic = paths.map({ $0 + "/tic" }).first(where: { access($0, X_OK) == 0 }) else { return nil }
        var template = Array((NSTemporaryDirectory() + "/eventctl-terminfo-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard (try? source.write(toFile: directory + "/entry", atomically: false, encoding: .utf8)) != nil,
              run(tic, ["-x", "-o", directory + "/db", directory + "/entry"]) == 0 else { return nil }
        // Curses reads TERMINFO only here, before the watch starts its threads; it is put
        // back at once, so that $EDITOR does not inherit it.
        let saved = getenv("TERMINFO").map { String(cString: $0) }
        setenv("TERMINFO", directory + "/db", 1)
        defer { if let saved { setenv("TERMINFO", saved, 1) } else { unsetenv("TERMINFO") } }
        return eventd_newterm_type(directColorType)
    }

    /// Runs a program, its standard streams on /dev/null (tic's warnings would land on
    /// the screen being taken), and returns its exit status (-1: it did not run or end).
    static func run(_ path: String, _ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 { if errno != EINTR { return -1 } }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// Lines and columns of the terminal.
    public var size: (lines: Int, columns: Int) { (Int(getmaxy(eventd_stdscr())), Int(getmaxx(eventd_stdscr()))) }

    /// Follows a resize of the terminal (after SIGWINCH): asks its size and resizes curses.
    public func resize() {
        var ws = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 else { return }
        resize_term(Int32(ws.ws_row), Int32(ws.ws_col))
        // The next draw repaints every cell: what the terminal kept after its resize is unknown.
        clearok(eventd_curscr(), true)
    }

    /// Gives the terminal back as the watch found it (before a stop: Ctrl-Z).
    public func suspend() {
        endwin()
        TerminalRestore.disarm()
    }

    /// Takes the terminal again after `suspend` (the job continued): curses' modes back,
    /// the size asked again (it may have changed meanwhile), every cell painted by the
    /// next draw.
    public func resume() {
        reset_prog_mode()
        TerminalRestore.prepare()
        resize()
        clearok(eventd_curscr(), true)
    }

    /// The next draw clears the terminal and paints every cell (Ctrl-L: whatever else
    /// wrote to the terminal goes).
    public func repaint() {
        clearok(eventd_curscr(), true)
    }

    /// Draws `lines` (each exactly as wide as the terminal) and sends what changed.
    public func draw(_ lines: [ScreenLine]) {
        for (y, line) in lines.prefix(size.lines).enumerated() {
            wmove(eventd_stdscr(), Int32(y), 0)
            for (span, emphasis) in line.spans.map({ ($0, line.emphasis) }) + line.side.map({ ($0, .none) }) {
                var (attributes, pair) = look(span.style, emphasis)
                wattr_set(eventd_stdscr(), attributes, Int16(truncatingIfNeeded: pair), &pair)
                _ = span.text.withCString { waddnstr(eventd_stdscr(), $0, -1) }
            }
        }
        wattr_set(eventd_stdscr(), eventd_a_normal(), 0, nil)
        wnoutrefresh(eventd_stdscr())
        doupdate()
    }

    /// The keys waiting (none when nothing was typed).
    public func keys() -> [WatchKey] {
        var keys: [WatchKey] = []
        var code: wint_t = 0
        while true {
            let kind = wget_wch(eventd_stdscr(), &code)
            if kind == ERR { return keys }
            if kind == KEY_CODE_YES {
                if let key = functionKey(Int32(code)) { keys.append(key) }
                continue
            }
            switch code {
            case 3: keys.append(.interrupt)
            case 12: keys.append(.repaint)
            case 26: keys.append(.suspend)
            case 27: keys.append(.escape)
            case 10, 13: keys.append(.enter)
            case 8, 127: keys.append(.backspace)
            default:
                if let scalar = Unicode.Scalar(UInt32(code)) { keys.append(.character(Character(scalar))) }
            }
        }
    }

    func functionKey(_ code: Int32) -> WatchKey? {
        switch code {
        case eventd_key_up(): return .up
        case eventd_key_down(): return .down
        case eventd_key_ppage(): return .pageUp
        case eventd_key_npage(): return .pageDown
        case eventd_key_home(): return .home
        case eventd_key_end(): return .end
        case eventd_key_enter(): return .enter
        case eventd_key_backspace(): return .backspace
        case eventd_key_mouse():
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            if event.bstate & mmask_t(eventd_mouse_wheel_up()) != 0 { return .wheelUp }
            if event.bstate & mmask_t(eventd_mouse_wheel_down()) != 0 { return .wheelDown }
            return nil
        default: return nil
        }
    }

    /// Attributes and colour pair of a span on a line.
    func look(_ style: AgendaRow.Style, _ emphasis: ScreenLine.Emphasis) -> (attr_t, Int32) {
        var attributes = eventd_a_normal()
        var foreground: CalendarPalette.RGB?
        var background: CalendarPalette.RGB?
        switch style {
        case .plain: break
        case .dim, .rule: attributes |= eventd_a_dim()
        case .bold: attributes |= eventd_a_bold()
        case .warning: attributes |= eventd_a_bold(); foreground = CalendarPalette.RGB(251, 140, 0)
        case .progress: attributes |= eventd_a_bold(); foreground = CalendarPalette.RGB(52, 168, 83)
        case .calendar(let name): foreground = palette.color(for: name)
        case .banner(let name):
            attributes |= eventd_a_reverse() | eventd_a_bold()
            foreground = palette.color(for: name)
        case .day(let marks):
            if marks.contains(.busy) { attributes |= eventd_a_bold() }
            if marks.contains(.today) { attributes |= eventd_a_underline() }
            if !marks.contains(.window) {
                attributes |= eventd_a_dim()
            } else if depth == .none {
                attributes |= eventd_a_reverse()
            } else {
                background = CalendarPalette.RGB(38, 79, 120)
            }
        }
        switch emphasis {
        case .none: break
        case .selected:
            if depth == .none {
                attributes ^= eventd_a_reverse()
                if attributes & eventd_a_reverse() == 0 { attributes |= eventd_a_underline() }
            } else {
                attributes |= eventd_a_bold()
                background = CalendarPalette.RGB(40, 60, 110)
            }
        case .fresh:
            attributes |= eventd_a_bold()
            if depth == .none { attributes |= eventd_a_underline() } else { background = CalendarPalette.RGB(90, 80, 0) }
        case .leaving: attributes |= eventd_a_dim()
        case .bar: if depth == .none { attributes |= eventd_a_reverse() } else { background = CalendarPalette.RGB(48, 48, 48) }
        }
        return (attributes, pair(foreground, background))
    }

    /// The colour pair of `foreground` on `background` (nil: the terminal's own), made
    /// on first use.
    func pair(_ foreground: CalendarPalette.RGB?, _ background: CalendarPalette.RGB?) -> Int32 {
        guard depth != .none, foreground != nil || background != nil else { return 0 }
        let fg = foreground.map(number) ?? -1
        let bg = background.map(number) ?? -1
        let key = Int64(fg) << 32 | Int64(UInt32(bitPattern: bg))
        if let known = pairs[key] { return known }
        let next = Int32(pairs.count + 1)
        guard next < eventd_color_pairs(), init_extended_pair(next, fg, bg) == OK else { return 0 }
        pairs[key] = next
        return next
    }

    func number(_ rgb: CalendarPalette.RGB) -> Int32 {
        switch depth {
        case .trueColor: return Int32(rgb.r << 16 | rgb.g << 8 | rgb.b)
        case .xterm256: return Int32(rgb.xterm256)
        case .basic, .none: return Int32(rgb.basic)
        }
    }

    /// Gives the terminal back: normal screen, cursor, modes (once; also from deinit).
    public func end() {
        guard !ended else { return }
        ended = true
        _ = mousemask(0, nil)
        curs_set(1)
        endwin()
        delscreen(screen)
        TerminalRestore.disarm()
    }
}
