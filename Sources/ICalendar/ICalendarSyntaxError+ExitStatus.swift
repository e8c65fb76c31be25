import Diagnostics

extension ICalendarSyntaxError: ExitStatusProviding {
    /// 65: the input is not iCalendar.
    public var exitStatus: ExitStatus { .dataError }
}
