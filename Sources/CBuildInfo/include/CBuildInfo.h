#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/** The git commit the binary was built from ("3f2c1a9b0d4e", with "-dirty" when the work tree
 *  had changes), or "unknown" for a build that did not go through `make` (a plain `swift build`). */
const char *reel_build_commit(void);

#endif
