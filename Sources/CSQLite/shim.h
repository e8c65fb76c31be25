#ifndef EVENTD_CSQLITE_SHIM_H
#define EVENTD_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
/// cannot import; expose it as a function.
static inline sqlite3_destructor_type eventd_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
