#if canImport(CCrypto)
import CCrypto
#endif

/// AES-128-CCM with a 13-byte nonce, a 4-byte tag and no associated data (NIST SP 800-38C), as
/// encrypted BTHome v2 uses it. The cipher is OpenSSL's (libcrypto's EVP interface): nothing here
/// implements AES. Built without libcrypto, `isAvailable` is false and nothing is decrypted.
enum AESCCM {
    static let keySize = 16
    static let nonceSize = 13
    static let tagSize = 4

    #if canImport(CCrypto)
    static let isAvailable = true
    #else
    static let isAvailable = false
    #endif

    /// The plaintext, or nil when the tag does not match (wrong key, wrong nonce, altered bytes).
    static func open(_ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard key.count == keySize, nonce.count == nonceSize, tag.count == tagSize else { return nil }
        #if canImport(CCrypto)
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        var tag = tag
        var plaintext = [UInt8](repeating: 0, count: max(ciphertext.count, 1))
        var written: Int32 = 0
        // The order CCM needs: cipher, nonce and tag lengths (and the expected tag), key and
        // nonce, the message length, then the message in one call, which also checks the tag.
        guard EVP_DecryptInit_ex(context, EVP_aes_128_ccm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceSize), nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagSize), &tag) == 1,
            EVP_DecryptInit_ex(context, nil, nil, key, nonce) == 1,
            EVP_DecryptUpdate(context, nil, &written, nil, Int32(ciphertext.count)) == 1
        else { return nil }
        let verified = ciphertext.withUnsafeBufferPointer { input in
            plaintext.withUnsafeMutableBufferPointer { output in
                // An empty message still needs pointers that are not null.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { spare in
                    EVP_DecryptUpdate(
                        context, output.baseAddress, &written, input.baseAddress ?? UnsafePointer(spare.baseAddress!),
                        Int32(input.count)) == 1
                }
            }
        }
        guard verified else { return nil }
        return Array(plaintext.prefix(ciphertext.count))
        #else
        return nil
        #endif
    }

    /// The ciphertext and its tag; nil only when libcrypto is missing or refuses the key or nonce.
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> (ciphertext: [UInt8], tag: [UInt8])? {
        guard key.count == keySize, nonce.count == nonceSize else { return nil }
        #if canImport(CCrypto)
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        var ciphertext = [UInt8](repeating: 0, count: max(plaintext.count, 1) + 16)
        var tag = [UInt8](repeating: 0, count: tagSize)
        var written: Int32 = 0
        var finished: Int32 = 0
        guard EVP_EncryptInit_ex(context, EVP_aes_128_ccm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceSize), nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagSize), nil) == 1,
            EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1,
            EVP_EncryptUpdate(context, nil, &written, nil, Int32(plaintext.count)) == 1
        else { return nil }
        let sealed = plaintext.withUnsafeBufferPointer { input in
            ciphertext.withUnsafeMutableBufferPointer { output in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { spare in
                    EVP_EncryptUpdate(
                        context, output.baseAddress, &written, input.baseAddress ?? UnsafePointer(spare.baseAddress!),
                        Int32(input.count)) == 1
                        && EVP_EncryptFinal_ex(context, output.baseAddress! + Int(written), &finished) == 1
                }
            }
        }
        guard sealed, EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagSize), &tag) == 1 else {
            return nil
        }
        return (Array(ciphertext.prefix(plaintext.count)), tag)
        #else
        return nil
        #endif
    }
}
