// PSGETRF, PDGETRF, PCGETRF and PZGETRF, intercepted under every name mangling: one line per
// precision, shim/pxgetrf.hpp does the work. IPIV is INTEGER in every precision.
#include <complex>

#include "shim/mangling.hpp"
#include "shim/pxgetrf.hpp"

// Exports pxgetrf<T> as ScaLAPACK's `lower`/`upper` (e.g. pzgetrf, PZGETRF); the real routine
// it forwards to is `lower`_.
#define HETSCAL_EXPORT_PXGETRF(lower, upper, T)                                             \
  HETSCAL_EXPORT_MANGLINGS(lower, upper, hetscal::shim::pxgetrf<T>,                         \
                           (const int* m, const int* n, T* a, const int* ia, const int* ja, \
                            const int* desca, int* ipiv, int* info),                        \
                           (#lower "_", #upper, m, n, a, ia, ja, desca, ipiv, info))

HETSCAL_EXPORT_PXGETRF(psgetrf, PSGETRF, float)
HETSCAL_EXPORT_PXGETRF(pdgetrf, PDGETRF, double)
HETSCAL_EXPORT_PXGETRF(pcgetrf, PCGETRF, std::complex<float>)
HETSCAL_EXPORT_PXGETRF(pzgetrf, PZGETRF, std::complex<double>)
