// xxHash (Debian libxxhash-dev): XXH3-128, the backup's media checksum. The streaming API
// (state, reset, update, digest) and the canonical big-endian form, which is what
// `xxhsum -H2` prints.
#include <xxhash.h>
