// The commit is the only build fact that changes with every commit, so it lives alone in this
// file: `make` (target build-info) writes commit.h beside it, only when its text changes, and
// touches this file then, so a new commit recompiles one C file and relinks; nothing else.
// commit.h is not in git (.gitignore); without it the commit reads "unknown".
#include "CBuildInfo.h"

#if __has_include("commit.h")
#include "commit.h"
#endif

#ifndef REEL_BUILD_COMMIT
#define REEL_BUILD_COMMIT "unknown"
#endif

const char *reel_build_commit(void) { return REEL_BUILD_COMMIT; }
