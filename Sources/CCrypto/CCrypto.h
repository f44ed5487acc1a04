// OpenSSL's libcrypto (Debian libssl-dev): the EVP message-digest API, for the backup's streamed
// SHA-256 checksums, and one-shot SHA-256 and HMAC, for the S3 target's SigV4 signatures.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
