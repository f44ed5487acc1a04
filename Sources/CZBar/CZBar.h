// ZBar 0.23 (Debian's libzbar-dev) for the study materials' barcode scanner (ReelBooks).
// Only the image scanner is used: a grey picture in, decoded symbols out.
#ifndef REEL_CZBAR_H
#define REEL_CZBAR_H

#include <zbar.h>

// zbar_fourcc is a macro: the "Y800" format (8-bit grey, one plane).
static inline unsigned long reel_zbar_y800(void) { return zbar_fourcc('Y', '8', '0', '0'); }

#endif
