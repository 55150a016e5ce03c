#ifndef BLUETAPE_CCRYPTO_SHIM_H
#define BLUETAPE_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for the AES-CCM of encrypted BTHome payloads (EVP interface only).
//
// The library is opened when a payload first needs it, not linked: almost no run decrypts
// anything, and loading libcrypto at start-up took a millisecond of every run. Its header
// still declares every type and function used, so the table below has their exact types.
#include <dlfcn.h>
#include <stddef.h>
#include <openssl/evp.h>

struct bluetape_crypto {
    __typeof__(EVP_CIPHER_CTX_new) *_Nonnull cipher_ctx_new;
    __typeof__(EVP_CIPHER_CTX_free) *_Nonnull cipher_ctx_free;
    __typeof__(EVP_CIPHER_CTX_ctrl) *_Nonnull cipher_ctx_ctrl;
    __typeof__(EVP_aes_128_ccm) *_Nonnull aes_128_ccm;
    __typeof__(EVP_DecryptInit_ex) *_Nonnull decrypt_init;
    __typeof__(EVP_DecryptUpdate) *_Nonnull decrypt_update;
    __typeof__(EVP_EncryptInit_ex) *_Nonnull encrypt_init;
    __typeof__(EVP_EncryptUpdate) *_Nonnull encrypt_update;
    __typeof__(EVP_EncryptFinal_ex) *_Nonnull encrypt_final;
};

/* Opens libcrypto (OpenSSL 3, the version the header is) and returns its functions; NULL when the
   library or one of its functions cannot be found (then `bluetape_crypto_error()` says why). Called
   once, from a Swift `static let`. */
static inline const struct bluetape_crypto *bluetape_crypto_load(void) {
    static struct bluetape_crypto table;
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) return NULL;
#define BLUETAPE_CRYPTO_SYMBOL(field, name) \
    if (!(table.field = (__typeof__(table.field))dlsym(library, #name))) return NULL;
    BLUETAPE_CRYPTO_SYMBOL(cipher_ctx_new, EVP_CIPHER_CTX_new)
    BLUETAPE_CRYPTO_SYMBOL(cipher_ctx_free, EVP_CIPHER_CTX_free)
    BLUETAPE_CRYPTO_SYMBOL(cipher_ctx_ctrl, EVP_CIPHER_CTX_ctrl)
    BLUETAPE_CRYPTO_SYMBOL(aes_128_ccm, EVP_aes_128_ccm)
    BLUETAPE_CRYPTO_SYMBOL(decrypt_init, EVP_DecryptInit_ex)
    BLUETAPE_CRYPTO_SYMBOL(decrypt_update, EVP_DecryptUpdate)
    BLUETAPE_CRYPTO_SYMBOL(encrypt_init, EVP_EncryptInit_ex)
    BLUETAPE_CRYPTO_SYMBOL(encrypt_update, EVP_EncryptUpdate)
    BLUETAPE_CRYPTO_SYMBOL(encrypt_final, EVP_EncryptFinal_ex)
#undef BLUETAPE_CRYPTO_SYMBOL
    return &table;
}

/* The reason the last load failed. */
static inline const char *bluetape_crypto_error(void) {
    const char *reason = dlerror();
    return reason ? reason : "unknown reason";
}
#endif
