// The commit is the only build fact that changes with every commit, so it lives alone in this
// file: `make build` writes commit.h beside it for the length of its release build (and touches
// this file before and after), so a new commit recompiles one C file and relinks, nothing else.
// commit.h is not in git (.gitignore); without it (a plain `swift build`) the commit reads
// "unknown", never a stale one.
#include "CBuildInfo.h"

#if __has_include("commit.h")
#include "commit.h"
#endif

#ifndef REEL_BUILD_COMMIT
#define REEL_BUILD_COMMIT "unknown"
#endif

const char *reel_build_commit(void) { return REEL_BUILD_COMMIT; }
