// Debian's SQLite 3 (libsqlite3-dev), found by pkg-config (sqlite3).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import:
// bound text and blobs are copied by SQLite before the call returns.
static inline sqlite3_destructor_type reel_sqlite_transient(void) { return SQLITE_TRANSIENT; }
