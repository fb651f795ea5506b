// PDGEMM, intercepted under every name mangling (shim/pxgemm.hpp does the work).
#include "shim/mangling.hpp"
#include "shim/pxgemm.hpp"

namespace hetscal::shim {

void pdgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
            const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
            double* c, const int* ic, const int* jc, const int* descc) {
  pxgemm<double>("pdgemm_", "PDGEMM", transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib,
                 jb, descb, beta, c, ic, jc, descc);
}

}  // namespace hetscal::shim

HETSCAL_EXPORT_MANGLINGS(
    pdgemm, PDGEMM, hetscal::shim::pdgemm,
    (const char* transa, const char* transb, const int* m, const int* n, const int* k,
     const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
     const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
     double* c, const int* ic, const int* jc, const int* descc),
    (transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc))
