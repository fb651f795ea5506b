// PDGETRF, intercepted under every name mangling (shim/pxgetrf.hpp does the work).
#include "shim/mangling.hpp"
#include "shim/pxgetrf.hpp"

namespace hetscal::shim {

void pdgetrf(const int* m, const int* n, double* a, const int* ia, const int* ja,
             const int* desca, int* ipiv, int* info) {
  pxgetrf<double>("pdgetrf_", "PDGETRF", m, n, a, ia, ja, desca, ipiv, info);
}

}  // namespace hetscal::shim

HETSCAL_EXPORT_MANGLINGS(pdgetrf, PDGETRF, hetscal::shim::pdgetrf,
                         (const int* m, const int* n, double* a, const int* ia, const int* ja,
                          const int* desca, int* ipiv, int* info),
                         (m, n, a, ia, ja, desca, ipiv, info))
