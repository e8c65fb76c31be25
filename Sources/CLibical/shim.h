#ifndef EVENTD_CLIBICAL_SHIM_H
#define EVENTD_CLIBICAL_SHIM_H
#include <libical/ical.h>
#endif
