/**
 * @file hetscal.h
 * @brief hetscal's public C interface.
 *
 * hetscal runs ScaLAPACK's PDGEMM, PDGETRF, PDGEQRF and PDPOTRF on a speed-aware
 * distribution for processors of different speeds. This header is the native API for new
 * code; unchanged ScaLAPACK programs need no header at all (relink or LD_PRELOAD).
 */
#ifndef HETSCAL_HETSCAL_H
#define HETSCAL_HETSCAL_H

#ifdef __cplusplus
extern "C" {
#endif

/** @return the library version as "MAJOR.MINOR.PATCH" (static storage). */
const char* hetscal_version(void);

#ifdef __cplusplus
}
#endif

#endif /* HETSCAL_HETSCAL_H */
