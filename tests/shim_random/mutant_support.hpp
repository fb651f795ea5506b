#pragma once
/// @file mutant_support.hpp
/// What the deliberately broken factorizations (mutant_pdpotrf.cpp, mutant_pdgetrf.cpp)
/// share: the mutation chosen by SHIM_RANDOM_MUTATION, and this process's view of a 9-entry
/// descriptor's local array through ScaLAPACK's own index tools.
#include <cstdlib>
#include <cstring>

#include "scalapack_abi.hpp"

namespace hetscal_test::mutant {

/// Whether SHIM_RANDOM_MUTATION names this mutation.
inline bool mutation_is(const char* name) {
  const char* chosen = std::getenv("SHIM_RANDOM_MUTATION");
  return chosen && std::strcmp(chosen, name) == 0;
}

/// This process's view of A (9-entry descriptor).
struct LocalView {
  int nprow = 1, npcol = 1, myrow = 0, mycol = 0;
  int rows = 0, cols = 0, lld = 1;
  const int* desc = nullptr;

  explicit LocalView(const int* d) : desc(d) {
    Cblacs_gridinfo(d[1], &nprow, &npcol, &myrow, &mycol);
    rows = numroc_(&d[2], &d[4], &myrow, &d[6], &nprow);
    cols = numroc_(&d[3], &d[5], &mycol, &d[7], &npcol);
    lld = d[8];
  }
  int global_row(int local) const {  // both 1-based
    return indxl2g_(&local, &desc[4], &myrow, &desc[6], &nprow);
  }
  int global_col(int local) const { return indxl2g_(&local, &desc[5], &mycol, &desc[7], &npcol); }
  bool holds_row(int i) const { return indxg2p_(&i, &desc[4], &myrow, &desc[6], &nprow) == myrow; }
  bool holds_col(int j) const { return indxg2p_(&j, &desc[5], &mycol, &desc[7], &npcol) == mycol; }
  /// 0-based local row of global row i (1-based). @pre holds_row(i)
  int local_row(int i) const { return indxg2l_(&i, &desc[4], &myrow, &desc[6], &nprow) - 1; }
  /// @return the local element at global (i, j) (1-based), or nullptr when another process holds it
  double* find(double* a, int i, int j) const {
    if (!holds_row(i) || !holds_col(j)) return nullptr;
    const int lj = indxg2l_(&j, &desc[5], &mycol, &desc[7], &npcol);
    return &a[local_row(i) + static_cast<long>(lj - 1) * lld];
  }
};

}  // namespace hetscal_test::mutant
