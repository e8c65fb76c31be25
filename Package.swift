// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "eventd",
    platforms: [.macOS(.v15)],
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
        // Linux interfaces Glibc's module leaves out (timerfd, inotify).
        .systemLibrary(name: "CLinux"),

        // MARK: - Libraries
        .target(name: "Support", dependencies: ["CCrypto"]),
        .target(name: "SectionedDiff"),
        .target(name: "ICalendar", dependencies: ["CLibical", "Support"]),
        .target(name: "EventStore", dependencies: ["CSQLite", "ICalendar", "Support"]),
        .target(name: "CalendarGenerator", dependencies: ["Support"]),
        .target(name: "Agenda", dependencies: ["EventStore", "ICalendar", "Support"]),
        .target(name: "LiveSources", dependencies: ["CCurl", "CLinux", "EventStore", "ICalendar", "Support"]),
        .target(name: "Feed", dependencies: ["Agenda", "CLinux", "LiveSources", "EventStore", "ICalendar", "SectionedDiff", "Support"]),
        // The web gateway: HTTP/1.1 and Server-Sent Events in front of the feed socket
        // (a pure state machine and a thin poll loop, as the feed's hub and loop).
        .target(name: "WebGateway", dependencies: ["Support"]),
        // Status bars (Waybar, i3bar, plain lines) fed by the feed: a pure renderer.
        .target(name: "StatusBar", dependencies: ["Feed", "ICalendar", "Support"]),
        // Desktop reminders before events: a pure planner, the sent log, sd-bus notifications.
        .target(name: "Reminders", dependencies: ["CSystemd", "StatusBar", "ICalendar", "Support"]),
        .target(name: "CommandLineKit", dependencies: ["Agenda", "EventStore", "Feed", "ICalendar", "LiveSources", "Support", "WebGateway"]),

        // MARK: - Executables
        .executableTarget(name: "eventctl", dependencies: ["CommandLineKit", "Agenda", "CLinux", "EventStore", "Feed", "ICalendar", "LiveSources", "Reminders", "SectionedDiff", "StatusBar", "Support"]),
        .executableTarget(name: "eventd", dependencies: ["CommandLineKit", "Feed", "Agenda", "Support"]),
        .executableTarget(name: "eventd-web", dependencies: ["CommandLineKit", "WebGateway", "Support"]),
        .executableTarget(name: "eventd-bench",
                          dependencies: ["Agenda", "CLinux", "EventStore", "Feed", "ICalendar", "LiveSources", "CLibical", "CalendarGenerator", "SectionedDiff", "Support"]),

        // MARK: - Tests
        // Support shared by the test targets (process runner, daemon harness, feed client and
        // state, calendar fixtures, seeded generator): a plain target only tests depend on.
        .target(name: "TestSupport", dependencies: ["Support", "CalendarGenerator", "EventStore"], path: "Tests/TestSupport"),
        .testTarget(name: "SupportTests", dependencies: ["Support", "TestSupport"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "Agenda", "EventStore", "Feed", "ICalendar", "Support", "WebGateway", "TestSupport"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "CLibical", "CalendarGenerator", "TestSupport"],
                    exclude: ["RealWorld"], resources: [.copy("Fixtures")]),
        .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "ICalendar", "CalendarGenerator", "TestSupport"]),
        .testTarget(name: "CalendarGeneratorTests", dependencies: ["CalendarGenerator", "TestSupport"]),
        .testTarget(name: "SectionedDiffTests", dependencies: ["SectionedDiff", "TestSupport"]),
        .testTarget(name: "EventctlTests", dependencies: ["TestSupport"]),
        .testTarget(name: "AgendaTests", dependencies: ["Agenda", "EventStore", "ICalendar", "SectionedDiff", "Support", "TestSupport"]),
        .testTarget(name: "FeedTests", dependencies: ["Feed", "Agenda", "EventStore", "LiveSources", "Support", "TestSupport"]),
        .testTarget(name: "LiveSourcesTests", dependencies: ["LiveSources", "EventStore", "Support", "TestSupport"]),
        .testTarget(name: "StatusBarTests", dependencies: ["StatusBar", "Reminders", "Feed", "ICalendar", "Support", "TestSupport"]),
        .testTarget(name: "DaemonTests", dependencies: ["SectionedDiff", "Support", "TestSupport"]),
        .testTarget(name: "ShipTests", dependencies: ["TestSupport"]),
        .testTarget(name: "WebGatewayTests", dependencies: ["WebGateway", "Support", "CalendarGenerator", "TestSupport"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["EventStore", "Support", "CalendarGenerator", "TestSupport"]),
        .testTarget(name: "HostileInputTests", dependencies: ["EventStore", "ICalendar", "Feed", "Support", "TestSupport"],
                    resources: [.copy("Corpus")]),
    ],
    swiftLanguageModes: [.v6]
)
