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
    ],
    targets: [
        // MARK: - C libraries
        .systemLibrary(name: "CLibical", pkgConfig: "libical",
                       providers: [.apt(["libical-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),

        // MARK: - Libraries
        .target(name: "Support", dependencies: ["CCrypto"]),
        .target(name: "SectionedDiff"),
        .target(name: "ICalendar", dependencies: ["CLibical", "Support"]),
        .target(name: "EventStore", dependencies: ["CSQLite", "ICalendar", "Support"]),
        .target(name: "CalendarGenerator", dependencies: ["Support"]),
        .target(name: "Agenda", dependencies: ["EventStore", "ICalendar", "Support"]),
        .target(name: "Feed", dependencies: ["Agenda", "EventStore", "ICalendar", "SectionedDiff", "Support"]),

        // MARK: - Executables
        .executableTarget(name: "eventctl", dependencies: ["Agenda", "EventStore", "Feed", "ICalendar", "SectionedDiff", "Support"]),
        .executableTarget(name: "eventd", dependencies: ["Feed", "Agenda", "Support"]),
        .executableTarget(name: "eventd-bench",
                          dependencies: ["Agenda", "EventStore", "Feed", "ICalendar", "CLibical", "CalendarGenerator", "SectionedDiff", "Support"]),

        // MARK: - Tests
        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "CLibical", "CalendarGenerator"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "EventStoreTests", dependencies: ["EventStore", "ICalendar", "CalendarGenerator"]),
        .testTarget(name: "CalendarGeneratorTests", dependencies: ["CalendarGenerator"]),
        .testTarget(name: "SectionedDiffTests", dependencies: ["SectionedDiff"]),
        .testTarget(name: "EventctlTests", dependencies: []),
        .testTarget(name: "AgendaTests", dependencies: ["Agenda", "EventStore", "ICalendar", "SectionedDiff", "Support"]),
        .testTarget(name: "DaemonTests", dependencies: ["SectionedDiff", "Support"]),
        .testTarget(name: "ShipTests", dependencies: []),
        .testTarget(name: "ReliabilityTests", dependencies: ["EventStore", "Feed", "Support", "CalendarGenerator"]),
        .testTarget(name: "HostileInputTests", dependencies: ["EventStore", "ICalendar", "Feed", "Support"],
                    resources: [.copy("Corpus")]),
    ],
    swiftLanguageModes: [.v6]
)
