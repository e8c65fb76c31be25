import Agenda
import CLinux
import Glibc

/// Wakes the feed loop the moment the wall clock is set (`timerfd` with
/// `TFD_TIMER_CANCEL_ON_SET`: an absolute timer far in the future that the kernel
/// cancels when `CLOCK_REALTIME` steps), and reads the system's zone name so that a
/// change of `/etc/localtime` is seen within a tick. Steps the kernel does not report
/// (resume from suspend, libfaketime) are caught by `ClockJumpDetector` at the next tick.
final class WallClockWatch {
    /// Readable when the wall clock was set; -1 when timerfd is not available.
    let fd: Int32
    private let environment: [String: String]
    private(set) var zoneName: String
    /// A valid `TZ` names the zone for the life of the process: nothing to watch.
    private let fixedByTZ: Bool

    init(environment: [String: String]) {
        self.environment = environment
        zoneName = AgendaClock.systemZoneName(environment: environment)
        fixedByTZ = AgendaClock.zoneNameFromTZ(environment) != nil
        fd = timerfd_create(CLOCK_REALTIME, eventd_tfd_cloexec | eventd_tfd_nonblock)
        arm()
    }

    deinit { if fd >= 0 { close(fd) } }

    private func arm() {
        guard fd >= 0 else { return }
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(Int32.max) // 2038: far enough; re-armed after every step
        _ = timerfd_settime(fd, eventd_tfd_timer_abstime | eventd_tfd_timer_cancel_on_set, &spec, nil)
    }

    /// After `fd` was readable: whether the clock was set (then the timer is re-armed).
    func acknowledge() -> Bool {
        var expirations: UInt64 = 0
        let n = read(fd, &expirations, 8)
        let stepped = n < 0 && errno == ECANCELED
        arm()
        return stepped
    }

    /// The system's zone now, when it differs from the last one seen.
    func zoneChange() -> String? {
        guard !fixedByTZ else { return nil }
        let name = AgendaClock.systemZoneName(environment: environment)
        guard name != zoneName else { return nil }
        zoneName = name
        return name
    }
}
