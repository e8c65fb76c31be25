import CLibical

extension VEventReader {
    /// The VEVENT's display alarms as seconds before its start (see `EventRecord.alarms`).
    /// `length` is the event's duration in seconds, for triggers related to its end.
    static func displayAlarms(_ c: OpaquePointer, length: Int64) -> [Int64] {
        var befores: [Int64] = []
        var alarm = icalcomponent_get_first_component(c, ICAL_VALARM_COMPONENT)
        while let a = alarm {
            defer { alarm = icalcomponent_get_next_component(c, ICAL_VALARM_COMPONENT) }
            guard let action = icalcomponent_get_first_property(a, ICAL_ACTION_PROPERTY),
                  icalproperty_get_action(action) == ICAL_ACTION_DISPLAY,
                  let triggerProp = icalcomponent_get_first_property(a, ICAL_TRIGGER_PROPERTY) else { continue }
            let trigger = icalproperty_get_trigger(triggerProp)
            // An absolute trigger (VALUE=DATE-TIME) names one instant, not an offset that
            // applies to every occurrence: not kept.
            guard icaltime_is_null_time(trigger.time) != 0 else { continue }
            var offset = Int64(icaldurationtype_as_int(trigger.duration))
            if let related = icalproperty_get_first_parameter(triggerProp, ICAL_RELATED_PARAMETER),
               icalparameter_get_related(related) == ICAL_RELATED_END {
                offset += length
            }
            let before = -offset
            if before >= 0, !befores.contains(before) { befores.append(before) }
        }
        return befores
    }
}
