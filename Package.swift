// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "eventd",
    products: [
        .library(name: "SectionedDiff", targets: ["SectionedDiff"]),
        // For the libFuzzer harness in fuzz/ (a separate package).
        .library(name: "ICalendar", targets: ["ICalendar"]),
        .library(name: "EventStore", targets: ["EventStore"]),
        .executable(name: "eventctl", targets: ["eventctl"]),
        .executable(name: "eventd", targets: ["eventd"]),
        .executable(name: "eventd-bench", targets: ["eventd-bench"]),
        .executable(name: "eventd-web", targets: ["eventd-web"]),
    ],
    targets: [
        // MARK: - C libraries
        .systemLibrary(name: "CLibical", pkgConfig: "libical",
                       providers: [.apt(["libical-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd",
                       providers: [.apt(["libsystemd-dev"])]),
        // No pkgConfig: hiredis.pc's only flag beyond -lhiredis is -D_FILE_OFFSET_BITS=64,
        // which SwiftPM refuses with a warning on every build (and which changes nothing
        // on 64-bit Linux); the shim includes <hiredis/hiredis.h> from /usr/include.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        // gzip for the dashboard's files (eventd-web).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The terminal for `eventctl watch`: terminfo, minimal updates, keys, the mouse.
        // No pkgConfig: ncursesw.pc's cflags are -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600, which
        // SwiftPM refuses with a warning on every build; the modulemap links ncursesw and
        // tinfo, the shim sets NCURSES_WIDECHAR itself.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        // Linux interfaces Glibc's module leaves out (timerfd, inotify).
        .systemLibrary(name: "CLinux"),

        // MARK: - Libraries
        .target(name: "CanonicalJSON"),
        .target(name: "Digests", dependencies: ["CCrypto"]),
        .target(name: "Diagnostics"),
        .target(name: "Threads"),
        .target(name: "RuntimeDirectories"),
        // The one epoll event loop both eventd's feed and eventd-web run on: descriptors,
        // interests, deadlines, wake-ups, non-blocking accept/read/write.
        .target(name: "Reactor", dependencies: ["CLinux", "Threads"]),
        .target(name: "SectionedDiff"),
        // Redis through hiredis: redis:// URLs, the password file, one owned blocking
        // connection with argv commands and pipelines. No feed knowledge.
        .target(name: "RedisClient", dependencies: ["CHiredis"]),
        .target(name: "ICalendar", dependencies: ["CLibical", "Digests", "Threads"]),
        .target(name: "EventStore", dependencies: ["CSQLite", "Diagnostics", "Digests", "ICalendar", "Threads"]),
        .target(name: "CalendarGenerator", dependencies: ["ICalendar"], path: "Benchmarks/CalendarGenerator"),
        // The feed through Redis Streams: view keys, and the publisher's and the gateway
        // upstream's pure state machines with their thin threads on RedisClient.
        .target(name: "RedisFeed", dependencies: ["CanonicalJSON", "Diagnostics", "Digests", "FeedProtocol", "RedisClient", "Threads"]),
        .target(name: "Agenda", dependencies: ["AgendaText", "CanonicalJSON", "Diagnostics", "Digests", "EventStore", "FeedProtocol", "ICalendar", "Threads"]),
        .target(name: "LiveSources", dependencies: ["CCurl", "CanonicalJSON", "Diagnostics", "EventStore", "ICalendar", "Threads"]),
        // The feed protocol as types: requests and messages (both ways), the client's
        // local copy and its subscription state machine. No I/O, no daemon modules.
        .target(name: "FeedProtocol", dependencies: ["CanonicalJSON", "Diagnostics", "Digests", "SectionedDiff", "Threads"]),
        // Clients' way to the feed socket: one connector with the trust checks, a blocking
        // connection, and the driver that runs a SubscriptionMachine over it.
        .target(name: "FeedClientKit", dependencies: ["FeedProtocol", "RuntimeDirectories", "Threads"]),
        // The one presentation of the agenda: day headers, times, lines, the now rule, the
        // section kinds and the calendar palette, and the feed's items as events with their
        // wording (status bars, reminders), for every surface (the web's rules pinned by
        // Tests/Vectors/agenda-text.json).
        .target(name: "AgendaText", dependencies: ["Diagnostics", "FeedProtocol", "ICalendar"]),
        .target(name: "Feed", dependencies: ["Agenda", "CLinux", "CanonicalJSON", "Diagnostics", "EventStore", "FeedProtocol", "ICalendar", "LiveSources", "Reactor", "RuntimeDirectories", "SectionedDiff", "Threads"]),
        // The web gateway: HTTP/1.1 and Server-Sent Events in front of the feed socket
        // (a pure state machine and a thin loop on the reactor, as the feed's hub and loop).
        .target(name: "WebGateway", dependencies: ["CLinux", "CZlib", "CanonicalJSON", "Diagnostics", "Digests", "FeedClientKit", "FeedProtocol", "Reactor", "RuntimeDirectories", "Threads"]),
        // Status bars (Waybar, i3bar, plain lines) fed by the feed: a pure renderer.
        .target(name: "StatusBar", dependencies: ["AgendaText", "CanonicalJSON", "Diagnostics", "ICalendar"]),
        // Desktop reminders before events: a pure planner, the sent log, sd-bus notifications.
        .target(name: "Reminders", dependencies: ["AgendaText", "CSystemd", "CanonicalJSON", "ICalendar"]),
        // eventd's --publish: a subscriber of the daemon's own socket per published view,
        // handing its lines to RedisFeed's publisher.
        .target(name: "RedisRelay", dependencies: ["Diagnostics", "FeedClientKit", "FeedProtocol", "RedisFeed", "Threads"]),
        // `eventctl watch`: the live agenda laid out, animated and driven by keys (pure),
        // and its thin curses screen and loop.
        .target(name: "TerminalAgenda", dependencies: ["AgendaText", "CNcursesw", "Diagnostics", "FeedClientKit", "FeedProtocol", "ICalendar", "SectionedDiff", "Threads"]),
        // The options eventd and eventd-web share (the Redis ones), declared once: the
        // executables' own, above the libraries they configure.
        .target(name: "ServerOptions", dependencies: ["CommandErrors", "CommandLineKit", "Diagnostics", "Feed", "Reactor", "RedisClient", "RedisFeed", "Threads", "WebGateway"]),
        // Low on purpose: it knows no domain error (the executables' CommandErrors maps them).
        .target(name: "CommandLineKit", dependencies: ["Diagnostics"]),

        // The one table from the libraries' errors to exit statuses and messages, for the
        // executables (CommandLineKit stays domain-free).
        .target(name: "CommandErrors", dependencies: ["Agenda", "CommandLineKit", "Diagnostics", "EventStore", "FeedClientKit", "FeedProtocol", "ICalendar", "LiveSources", "RuntimeDirectories"]),

        // MARK: - Executables
        .executableTarget(name: "eventctl", dependencies: ["Agenda", "AgendaText", "CLinux", "CanonicalJSON", "CommandErrors", "CommandLineKit", "Diagnostics", "Digests", "EventStore", "FeedClientKit", "FeedProtocol", "ICalendar", "LiveSources", "Reminders", "RuntimeDirectories", "StatusBar", "TerminalAgenda", "Threads"]),
        .executableTarget(name: "eventd", dependencies: ["Agenda", "CommandErrors", "CommandLineKit", "Diagnostics", "Digests", "Feed", "FeedClientKit", "ICalendar", "RedisFeed", "RedisRelay", "RuntimeDirectories", "ServerOptions", "Threads"]),
        .executableTarget(name: "eventd-web", dependencies: ["CLinux", "CommandErrors", "CommandLineKit", "Diagnostics", "Digests", "RedisFeed", "RuntimeDirectories", "ServerOptions", "Threads", "WebGateway"]),
        .executableTarget(name: "eventd-bench",
                          dependencies: ["Agenda", "CLibical", "CLinux", "CSQLite", "CalendarGenerator", "CanonicalJSON", "CommandLineKit", "EventStore", "Feed", "FeedClientKit", "FeedProtocol", "ICalendar", "LiveSources", "RuntimeDirectories", "SectionedDiff", "Threads"],
                          path: "Benchmarks/eventd-bench"),

        // MARK: - Tests
        // Support shared by the test targets (process runner, daemon harness, feed client and
        // state, calendar fixtures, seeded generator): a plain target only tests depend on.
        .target(name: "TestSupport", dependencies: ["CalendarGenerator", "CanonicalJSON", "Digests", "EventStore", "ICalendar"], path: "Tests/TestSupport"),
        // The power-cut tests' SQLite VFS (C): it wraps the unix VFS, keeps what was last
        // fsynced of each file and dir-synced of each name, and restores that at a cut.
        .target(name: "CCrashVFS", dependencies: ["CSQLite"], path: "Tests/CCrashVFS"),
        .testTarget(name: "CoreModulesTests", dependencies: ["CanonicalJSON", "Diagnostics", "Digests", "RuntimeDirectories", "TestSupport"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["Agenda", "CommandErrors", "CommandLineKit", "Diagnostics", "EventStore", "Feed", "FeedClientKit", "FeedProtocol", "ICalendar", "LiveSources", "RuntimeDirectories", "ServerOptions", "TestSupport", "WebGateway"]),
        .testTarget(name: "ICalendarTests", dependencies: ["CLibical", "CalendarGenerator", "CanonicalJSON", "Digests", "ICalendar", "TestSupport"],
                    exclude: ["RealWorld"], resources: [.copy("Fixtures")]),
        .testTarget(name: "EventStoreTests", dependencies: ["CalendarGenerator", "EventStore", "ICalendar", "TestSupport"]),
        .testTarget(name: "CalendarGeneratorTests", dependencies: ["CalendarGenerator", "TestSupport"]),
        .testTarget(name: "SectionedDiffTests", dependencies: ["SectionedDiff", "TestSupport"]),
        .testTarget(name: "EventctlTests", dependencies: ["TestSupport"]),
        .testTarget(name: "AgendaTests", dependencies: ["Agenda", "CanonicalJSON", "Digests", "EventStore", "FeedProtocol", "ICalendar", "SectionedDiff", "TestSupport"]),
        // Service threads and the lifecycle's rules, with fake services.
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"]),
        .testTarget(name: "ReactorTests", dependencies: ["Reactor", "Threads", "TestSupport"]),
        .testTarget(name: "FeedProtocolTests", dependencies: ["CanonicalJSON", "FeedClientKit", "FeedProtocol", "SectionedDiff", "TestSupport", "Threads"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "FeedTests", dependencies: ["Agenda", "CanonicalJSON", "Diagnostics", "EventStore", "Feed", "FeedProtocol", "ICalendar", "LiveSources", "TestSupport", "Threads"]),
        .testTarget(name: "LiveSourcesTests", dependencies: ["CanonicalJSON", "EventStore", "LiveSources", "TestSupport", "Threads"]),
        .testTarget(name: "AgendaTextTests", dependencies: ["AgendaText", "CanonicalJSON", "FeedProtocol", "ICalendar", "TestSupport"]),
        .testTarget(name: "TerminalAgendaTests", dependencies: ["AgendaText", "CanonicalJSON", "FeedClientKit", "FeedProtocol", "ICalendar", "TerminalAgenda", "TestSupport", "Threads"]),
        .testTarget(name: "StatusBarTests", dependencies: ["AgendaText", "CanonicalJSON", "FeedProtocol", "ICalendar", "Reminders", "StatusBar", "TestSupport"]),
        .testTarget(name: "DaemonTests", dependencies: ["CanonicalJSON", "SectionedDiff", "TestSupport"]),
        .testTarget(name: "ShipTests", dependencies: ["Diagnostics", "TestSupport"]),
        // The Debian package installed, upgraded, removed and purged on this machine (root).
        .testTarget(name: "PackageTests", dependencies: ["Diagnostics", "TestSupport"]),
        .testTarget(name: "WebGatewayTests", dependencies: ["CalendarGenerator", "CanonicalJSON", "FeedProtocol", "RuntimeDirectories", "TestSupport", "WebGateway"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["CCrashVFS", "CalendarGenerator", "CanonicalJSON", "Digests", "EventStore", "TestSupport"]),
        // Redis: URLs, password files, and the client against a redis-server each test starts.
        .testTarget(name: "RedisTests", dependencies: ["CalendarGenerator", "CanonicalJSON", "Feed", "FeedProtocol", "RedisClient", "RedisFeed", "TestSupport"]),
        .testTarget(name: "HostileInputTests", dependencies: ["CanonicalJSON", "EventStore", "Feed", "FeedProtocol", "ICalendar", "TestSupport"],
                    resources: [.copy("Corpus")]),
    ],
    swiftLanguageModes: [.v6]
)
