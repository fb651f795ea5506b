// A deliberately broken PDGEMM, preloaded instead of hetscal, to show that pdgemm_random
// catches each kind of fault it claims to catch (tests named shim_random_catches_*). It calls
// ScaLAPACK's pdgemm_ and then breaks the contract as SHIM_RANDOM_MUTATION says:
//   drops_last_term   computes with K-1 (a missing rank-1 update)
//   reads_c_beta_zero with beta = 0, uses a tiny beta instead (reads C, which holds NaN)
//   writes_padding    writes below LOCr in the padding of C's first local column
//   writes_outside    writes the C element just above sub(C) (row IC-1, column JC)
//   modifies_a        changes A's first local element
#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "scalapack_abi.hpp"


namespace {

using Pdgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                        const double*, const int*, const int*, const int*, const double*,
                        const int*, const int*, const int*, const double*, double*, const int*,
                        const int*, const int*);

bool mutation_is(const char* name) {
  const char* chosen = std::getenv("SHIM_RANDOM_MUTATION");
  return chosen && std::strcmp(chosen, name) == 0;
}

// The 9-entry descriptor only: the faults need not reach every case to be caught.
void write_padding(double* c, const int* descc) {
  if (descc[0] != 1) return;
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(descc[1], &nprow, &npcol, &myrow, &mycol);
  const int rows = numroc_(&descc[2], &descc[4], &myrow, &descc[6], &nprow);
  if (descc[8] > rows) c[descc[8] - 1] = 0.0;  // the padding holds a NaN sentinel
}

void write_above(double* c, int ic, int jc, const int* descc) {
  if (descc[0] != 1 || ic < 2) return;
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(descc[1], &nprow, &npcol, &myrow, &mycol);
  const int row = ic - 1;
  if (indxg2p_(&row, &descc[4], &myrow, &descc[6], &nprow) != myrow ||
      indxg2p_(&jc, &descc[5], &mycol, &descc[7], &npcol) != mycol) {
    return;
  }
  const int li = indxg2l_(&row, &descc[4], &myrow, &descc[6], &nprow);
  const int lj = indxg2l_(&jc, &descc[5], &mycol, &descc[7], &npcol);
  c[(li - 1) + static_cast<long>(lj - 1) * descc[8]] += 1.0;
}

}  // namespace

extern "C" void pdgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                        const double* alpha, const double* a, const int* ia, const int* ja,
                        const int* desca, const double* b, const int* ib, const int* jb,
                        const int* descb, const double* beta, double* c, const int* ic,
                        const int* jc, const int* descc) {
  static const auto scalapack = reinterpret_cast<Pdgemm>(dlsym(RTLD_NEXT, "pdgemm_"));
  int used_k = *k;
  double used_beta = *beta;
  if (mutation_is("drops_last_term") && used_k > 1) --used_k;
  if (mutation_is("reads_c_beta_zero") && used_beta == 0.0) used_beta = 1e-300;
  scalapack(ta, tb, m, n, &used_k, alpha, a, ia, ja, desca, b, ib, jb, descb, &used_beta, c, ic,
            jc, descc);
  if (mutation_is("writes_padding")) write_padding(c, descc);
  if (mutation_is("writes_outside")) write_above(c, *ic, *jc, descc);
  if (mutation_is("modifies_a")) {
    double* first = const_cast<double*>(a);
    *first = std::nextafter(*first, 2.0);
  }
}
