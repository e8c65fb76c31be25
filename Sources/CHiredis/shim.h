#ifndef EVENTD_CHIREDIS_SHIM_H
#define EVENTD_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>

/* redisContext.errstr is a fixed char array, which Swift imports as a tuple: one accessor
   gives it as a C string. */
static inline const char *eventd_redis_errstr(const redisContext *c) { return c->errstr; }
#endif
