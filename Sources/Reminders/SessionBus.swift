import CSystemd
import Glibc

/// A failure of sd-bus: its code and, for a method call the other side refused, the
/// D-Bus error's name and message.
public struct BusError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var name: String?
    public var message: String?

    public var description: String {
        let reason = String(cString: strerror(code))
        if let name { return "\(name): \(message ?? reason)" }
        return reason
    }
}

/// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`): one
/// sd-bus connection, owned here and closed in `deinit`.
public final class SessionBus {
    private let bus: OpaquePointer

    /// Connects; throws `BusError` when there is no session bus.
    public init() throws(BusError) {
        var handle: OpaquePointer?
        try Self.check(sd_bus_open_user(&handle))
        guard let handle else { throw BusError(code: EINVAL) }
        bus = handle
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Every sd-bus return code goes through here: a negative one is `-errno`.
    static func check(_ rc: Int32, _ error: UnsafePointer<sd_bus_error>? = nil) throws(BusError) {
        guard rc < 0 else { return }
        var failure = BusError(code: -rc)
        if let error, let name = error.pointee.name {
            failure.name = String(cString: name)
            failure.message = error.pointee.message.map { String(cString: $0) }
        }
        throw failure
    }

    /// `org.freedesktop.Notifications.Notify`; returns the server's notification id.
    /// Waits at most `timeout` for the answer (a hung server must not hang us).
    public func notify(app: String, icon: String = "", summary: String, body: String, urgency: UInt8 = 1,
                       expireMilliseconds: Int32 = -1, timeout: Duration = .seconds(5)) throws(BusError) -> UInt32 {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var id: UInt32 = 0
        let rc = eventd_bus_notify(bus, app, icon, summary, body, urgency, expireMilliseconds, UInt64(timeout / .microseconds(1)), &id, &error)
        try Self.check(rc, &error)
        return id
    }
}
