#ifndef EVENTD_CCURL_SHIM_H
#define EVENTD_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
   one typed wrapper per argument type. */
static inline CURLcode eventd_curl_set_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode eventd_curl_set_offset(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode eventd_curl_set_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode eventd_curl_set_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode eventd_curl_set_list(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }

typedef size_t (*eventd_curl_data_fn)(char *data, size_t size, size_t count, void *context);
typedef int (*eventd_curl_progress_fn)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode eventd_curl_set_data_fn(CURL *h, CURLoption o, eventd_curl_data_fn f) { return curl_easy_setopt(h, o, f); }
static inline CURLcode eventd_curl_set_progress_fn(CURL *h, eventd_curl_progress_fn f) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }

/* CURLOPT_PREREQFUNCTION (libcurl 7.80): called before each request, a redirect's too,
   with the address connected to; non-zero aborts. */
typedef int (*eventd_curl_prereq_fn)(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port);
static inline CURLcode eventd_curl_set_prereq_fn(CURL *h, eventd_curl_prereq_fn f) { return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, f); }
static const int eventd_curl_prereqfunc_ok = CURL_PREREQFUNC_OK;
static const int eventd_curl_prereqfunc_abort = CURL_PREREQFUNC_ABORT;

static inline CURLcode eventd_curl_get_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
#endif
