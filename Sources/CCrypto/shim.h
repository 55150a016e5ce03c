#ifndef BLUETAPE_CCRYPTO_SHIM_H
#define BLUETAPE_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for the AES-CCM of encrypted BTHome payloads (EVP interface only).
#include <openssl/evp.h>
#endif
