// OpenSSL's libcrypto (Debian libssl-dev): only the EVP message-digest API, for the backup's
// streamed SHA-256 checksums.
#include <openssl/evp.h>
