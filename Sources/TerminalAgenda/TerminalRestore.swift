import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

// Written once by `prepare` before the handlers that read them are installed, and read
// only by those handlers (a signal handler can reach nothing but globals).
nonisolated(unsafe) private var restoreBytes = [UInt8](repeating: 0, count: 512)
nonisolated(unsafe) private var restoreCount = 0
// The self-pipe's write end, set before the handlers that write to it are installed.
nonisolated(unsafe) private var signalWriteFD: Int32 = -1

/// The terminal given back whatever ends the watch, and signals turned into bytes a
/// loop can `poll`.
///
/// SIGTERM, SIGHUP, SIGINT and SIGWINCH write their number to a pipe (the session
/// quits cleanly or re-lays out). A crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE,
/// SIGABRT: Swift's traps among them) cannot run curses' `endwin`, which is not
/// async-signal-safe: its handler writes the terminfo strings that leave the alternate
/// screen, show the cursor, reset attributes, keypad and mouse modes (asked of
/// terminfo beforehand), then dies of the signal as it would have.
public enum TerminalRestore {
    static let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]
    /// The signals `watchSignals` reports.
    public static let reported = [SIGTERM, SIGHUP, SIGINT, SIGWINCH]

    /// Installs the handlers of `reported`; returns the pipe's read end (non-blocking),
    /// each byte a signal number. Must come before curses starts (which then leaves
    /// SIGWINCH, SIGINT and SIGTERM to them).
    public static func watchSignals() -> Int32 {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalWriteFD = fds[1]
        // A parent may have started us with them blocked (the mask is inherited).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in reported { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signal in reported { install(signal, flags: SA_RESTART) { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(signalWriteFD, &byte, 1)
        } }
        return fds[0]
    }

    /// Reads the signals reported since the last call.
    public static func take(from fd: Int32) -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return signals }
            signals += buffer[0..<n].map { Int32($0) }
        }
    }

    /// Asks terminfo for the strings that undo what curses set up, and arms the crash
    /// handlers (curses has started).
    static func prepare() {
        var bytes: [UInt8] = []
        for cap in ["rmcup", "cnorm", "sgr0", "rmkx"] {
            if let text = tigetstr(cap), Int(bitPattern: text) != -1 { bytes += Array(String(cString: text).utf8) }
        }
        // The mouse modes curses turned on, as the terminal's XM capability turns them off.
        if let xm = tigetstr("XM"), Int(bitPattern: xm) != -1, let off = eventd_tiparm1(xm, 0) {
            bytes += Array(String(cString: off).utf8)
        }
        restoreCount = min(bytes.count, restoreBytes.count)
        restoreBytes.replaceSubrange(0..<restoreCount, with: bytes.prefix(restoreCount))
        for signal in crashSignals { install(signal, flags: Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))) { number in
            restoreBytes.withUnsafeBufferPointer { _ = write(1, $0.baseAddress, restoreCount) }
            raise(number)
        } }
    }

    /// The terminal is restored already: crashes from now on leave it alone.
    static func disarm() {
        for signal in crashSignals { Glibc.signal(signal, SIG_DFL) }
        restoreCount = 0
    }

    private static func install(_ signal: Int32, flags: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        action.sa_flags = flags
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }
}
