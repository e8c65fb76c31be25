import Foundation

/// A progress bar on standard error, shown only on a terminal and only once an
/// operation has run for more than a second.
final class ProgressBar {
    private let enabled: Bool
    private let start: Date
    private var shown = false
    private var lastDrawn = -1

    init(enabled: Bool, start: Date) {
        self.enabled = enabled
        self.start = start
    }

    func update(_ fraction: Double) {
        guard enabled, Date().timeIntervalSince(start) > 1 else { return }
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        shown = true
        let width = 30
        let filled = width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(percent)%".utf8))
    }

    func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
