#ifndef EVENTD_CLINUX_SHIM_H
#define EVENTD_CLINUX_SHIM_H
/* Linux-only interfaces Glibc's Swift module does not export. */
#include <sys/timerfd.h>
#include <time.h>

/// The timerfd flags are an anonymous enum in glibc; give Swift plain constants.
static const int eventd_tfd_timer_abstime = TFD_TIMER_ABSTIME;
static const int eventd_tfd_timer_cancel_on_set = TFD_TIMER_CANCEL_ON_SET;
static const int eventd_tfd_cloexec = TFD_CLOEXEC;
static const int eventd_tfd_nonblock = TFD_NONBLOCK;
#endif
