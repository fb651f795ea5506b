// PDPOTRF, intercepted under every name mangling (shim/pxpotrf.hpp does the work).
#include "shim/mangling.hpp"
#include "shim/pxpotrf.hpp"

namespace hetscal::shim {

void pdpotrf(const char* uplo, const int* n, double* a, const int* ia, const int* ja,
             const int* desca, int* info) {
  pxpotrf<double>("pdpotrf_", "PDPOTRF", uplo, n, a, ia, ja, desca, info);
}

}  // namespace hetscal::shim

HETSCAL_EXPORT_MANGLINGS(pdpotrf, PDPOTRF, hetscal::shim::pdpotrf,
                         (const char* uplo, const int* n, double* a, const int* ia, const int* ja,
                          const int* desca, int* info),
                         (uplo, n, a, ia, ja, desca, info))
