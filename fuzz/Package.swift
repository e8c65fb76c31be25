// swift-tools-version:6.0
// The libFuzzer harness for eventd's import path. A separate package, because its
// executable only links with `-sanitize=fuzzer` (libFuzzer provides `main`); the main
// package's normal build never sees it. Build and run it with `scripts/fuzz.sh`.
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, whatever the checkout is called.
let parent = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let parentIdentity = parent.lastPathComponent.lowercased()

let package = Package(
    name: "eventd-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "ImportFuzzer",
                          dependencies: [.product(name: "ICalendar", package: parentIdentity),
                                         .product(name: "EventStore", package: parentIdentity)]),
    ],
    swiftLanguageModes: [.v6]
)
