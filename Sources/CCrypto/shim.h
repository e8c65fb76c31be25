#ifndef EVENTD_CCRYPTO_SHIM_H
#define EVENTD_CCRYPTO_SHIM_H
/* OpenSSL's EVP digest API (SHA-256 for Digests.SHA256). */
#include <openssl/evp.h>
#include <openssl/crypto.h>
#endif
