#ifndef EVENTD_CCRYPTO_SHIM_H
#define EVENTD_CCRYPTO_SHIM_H
/* Only SHA-256's block function is used (OpenSSL picks SHA-NI/AVX2 code paths);
 * it is marked deprecated in OpenSSL 3 in favour of EVP, which has no block API. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
#endif
