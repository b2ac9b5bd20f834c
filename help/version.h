/* version.h - e2layout's version and release date, shown by -V and in the
 * manual page's title line (raise both at a release). */
#ifndef E2L_VERSION_H
#define E2L_VERSION_H

#define E2LAYOUT_VERSION "0.1.0"
#define E2LAYOUT_DATE "2026-12-02"

#endif
