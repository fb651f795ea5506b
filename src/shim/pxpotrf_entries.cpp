// PSPOTRF, PDPOTRF, PCPOTRF and PZPOTRF, intercepted under every name mangling: one line per
// precision, shim/pxpotrf.hpp does the work (on complex data sub(A) is Hermitian).
#include <complex>

#include "shim/mangling.hpp"
#include "shim/pxpotrf.hpp"

// Exports pxpotrf<T> as ScaLAPACK's `lower`/`upper` (e.g. pzpotrf, PZPOTRF); the real routine
// it forwards to is `lower`_.
#define HETSCAL_EXPORT_PXPOTRF(lower, upper, T)                                                 \
  HETSCAL_EXPORT_MANGLINGS(lower, upper, hetscal::shim::pxpotrf<T>,                             \
                           (const char* uplo, const int* n, T* a, const int* ia, const int* ja, \
                            const int* desca, int* info),                                       \
                           (#lower "_", #upper, uplo, n, a, ia, ja, desca, info))

HETSCAL_EXPORT_PXPOTRF(pspotrf, PSPOTRF, float)
HETSCAL_EXPORT_PXPOTRF(pdpotrf, PDPOTRF, double)
HETSCAL_EXPORT_PXPOTRF(pcpotrf, PCPOTRF, std::complex<float>)
HETSCAL_EXPORT_PXPOTRF(pzpotrf, PZPOTRF, std::complex<double>)
