#ifndef EVENTD_CLINUX_SHIM_H
#define EVENTD_CLINUX_SHIM_H
/* Linux-only interfaces Glibc's Swift module does not export. */
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <malloc.h>
/* openpty: a pseudo-terminal for what tests a terminal program (eventd-bench watch-idle). */
#include <pty.h>
/* sock_diag: the owner of a local TCP socket (eventd-web's peer account check). */
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/inet_diag.h>

static const int eventd_netlink_sock_diag = NETLINK_SOCK_DIAG;
static const int eventd_sock_diag_by_family = SOCK_DIAG_BY_FAMILY;
static const int eventd_nlmsg_error = NLMSG_ERROR;
static const int eventd_nlm_f_request = NLM_F_REQUEST;
static const unsigned eventd_inet_diag_nocookie = INET_DIAG_NOCOOKIE;

/// The timerfd flags are an anonymous enum in glibc; give Swift plain constants.
static const int eventd_tfd_timer_abstime = TFD_TIMER_ABSTIME;
static const int eventd_tfd_timer_cancel_on_set = TFD_TIMER_CANCEL_ON_SET;
static const int eventd_tfd_cloexec = TFD_CLOEXEC;
static const int eventd_tfd_nonblock = TFD_NONBLOCK;

/// The epoll flags are an enum in glibc; plain constants read better from Swift.
static const unsigned eventd_epollin = EPOLLIN;
static const unsigned eventd_epollout = EPOLLOUT;
static const unsigned eventd_epollerr = EPOLLERR;
static const unsigned eventd_epollhup = EPOLLHUP;
static const unsigned eventd_epollrdhup = EPOLLRDHUP;
static const int eventd_epoll_cloexec = EPOLL_CLOEXEC;

/// glibc's memmem (declared only under _GNU_SOURCE, which Swift's Glibc module is
/// built without): the first occurrence of a byte string in another, or NULL.
extern void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);
static inline const void *eventd_memmem(const void *haystack, size_t haystack_length,
                                        const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}
/// The CPUs the calling process may run on: its affinity mask's count (sched_getaffinity
/// and CPU_COUNT are declared only under _GNU_SOURCE), or 0 when it cannot be read.
extern int sched_getaffinity(int pid, size_t size, void *mask);
static inline int eventd_available_cpus(void) {
    unsigned long mask[16] = {0};
    if (sched_getaffinity(0, sizeof mask, mask) != 0) return 0;
    int count = 0;
    for (unsigned i = 0; i < sizeof mask / sizeof mask[0]; i++) count += __builtin_popcountl(mask[i]);
    return count;
}

#endif
