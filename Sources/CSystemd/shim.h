#ifndef EVENTD_CSYSTEMD_SHIM_H
#define EVENTD_CSYSTEMD_SHIM_H
#include <stdint.h>
#include <systemd/sd-bus.h>

/* sd_bus_call_method is variadic, which Swift cannot call: one typed wrapper for the
   one method eventctl calls, org.freedesktop.Notifications.Notify
   (app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout),
   with the urgency hint (a byte: 0 low, 1 normal, 2 critical). Returns sd-bus's code;
   the server's notification id in *id. */
static inline int eventd_bus_notify(sd_bus *bus, const char *app, const char *icon, const char *summary,
                                    const char *body, uint8_t urgency, int32_t timeout_ms, uint64_t call_timeout_us,
                                    uint32_t *id, sd_bus_error *error) {
    sd_bus_message *m = NULL, *reply = NULL;
    int r = sd_bus_message_new_method_call(bus, &m, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                           "org.freedesktop.Notifications", "Notify");
    if (r < 0) return r;
    r = sd_bus_message_append(m, "susssasa{sv}i", app, (uint32_t)0, icon, summary, body, 0, 1, "urgency", "y", urgency,
                              timeout_ms);
    if (r >= 0) r = sd_bus_call(bus, m, call_timeout_us, error, &reply);
    if (r >= 0) r = sd_bus_message_read(reply, "u", id);
    sd_bus_message_unref(reply);
    sd_bus_message_unref(m);
    return r;
}
#endif
