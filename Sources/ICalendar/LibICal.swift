import CLibical
import Foundation

/// Serialises every call into libical, whose zone caches and parser state are not
/// thread-safe. Public entry points of this module take the lock; it is recursive so
/// that they may call each other.
enum LibICal {
    static let lock = NSRecursiveLock()

    @inline(__always)
    static func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A Swift string from a C string that libical returned (nil stays nil).
    @inline(__always)
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// The UTC zone object of libical.
    static var utc: OpaquePointer { icaltimezone_get_utc_timezone() }
}

extension icaltimetype {
    /// The wall-clock fields as a `CivilDateTime` (time 00:00:00 for DATE values).
    var civil: CivilDateTime {
        CivilDateTime(date: CivilDate(year: Int(year), month: Int(month), day: Int(day)),
                      hour: is_date != 0 ? 0 : Int(hour), minute: is_date != 0 ? 0 : Int(minute),
                      second: is_date != 0 ? 0 : Int(min(second, 59)))
    }

    /// A libical time with these wall-clock fields and no zone.
    init(civil: CivilDateTime, isDate: Bool) {
        self.init()
        year = Int32(civil.date.year)
        month = Int32(civil.date.month)
        day = Int32(civil.date.day)
        hour = isDate ? 0 : Int32(civil.hour)
        minute = isDate ? 0 : Int32(civil.minute)
        second = isDate ? 0 : Int32(civil.second)
        is_date = isDate ? 1 : 0
        is_daylight = 0
        zone = nil
    }
}
