// libFuzzer entry point over eventd's import path: the bytes of one .ics file go
// through CalendarParser.parse, every series is expanded with Expander over two
// windows (2026, and 90 days around its first start), and (unless
// EVENTD_FUZZ_STORE=0) the file is imported into an in-memory EventStore whose window
// query is read back, as `eventctl import` and `eventctl agenda` do. A crash, an ASan report, a timeout or an out-of-memory is a
// finding; thrown ICalendarSyntaxError/ImportError are the expected rejections.
//
// Built with `-sanitize=fuzzer,address -parse-as-library` (scripts/fuzz.sh): libFuzzer
// supplies main(), this file only the callback.
import Foundation
import EventStore
import ICalendar

/// Windows every series is expanded over (UTC seconds): a fixed year, plus one
/// around the series' own first start (below).
let fixedFrom = Int64(1_767_225_600)   // 2026-01-01
let fixedTo = Int64(1_798_761_600)     // 2027-01-01
let berlin = Zone.system("Europe/Berlin") ?? .utc
let useStore = ProcessInfo.processInfo.environment["EVENTD_FUZZ_STORE"] != "0"
nonisolated(unsafe) var store: EventStore? = nil

func expandAll(_ series: Series) {
    let zones = ZoneRegistry.shared
    var total = 0
    total += Expander.expand(series, from: fixedFrom, to: fixedTo, floatingZone: .utc, zones: zones).count
    if let start = (series.master ?? series.overrides.first)?.start {
        let at = start.instant(zones: zones, floatingZone: berlin)
        // 90 days from 30 days before the first start, kept inside years 1…9999.
        let from = max(-62_135_596_800, min(at, 253_402_300_799) - 30 * 86_400)
        let to = from + 90 * 86_400
        total += Expander.expand(series, from: from, to: to, floatingZone: berlin, zones: zones).count
    }
    precondition(total >= 0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    // 1. Parse and expand in memory.
    if let parsed = try? CalendarParser.parse(bytes) {
        for (_, series) in parsed.series() { expandAll(series) }
    }
    // 2. Import into a store (spans, conflicts, zones) and read the window back.
    if useStore {
        if store == nil { store = try? EventStore(path: ":memory:") }
        if let store {
            let input = ImportInput(path: "/fuzz/input.ics", displayName: "input.ics", bytes: bytes, calendar: "fuzz")
            if (try? store.importCalendars([input], options: ImportOptions(replace: true))) != nil {
                _ = try? store.series(fromMinute: fixedFrom / 60, toMinute: fixedTo / 60)
            }
        }
    }
    return 0
}

// MARK: - Entry point

// SwiftPM links an executable target with `--defsym main=<Target>_main`, so libFuzzer's
// own main() is not the entry point; this one hands over to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("ImportFuzzer_main")
public func importFuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector) { data, size in fuzzOne(data, size) }
}
