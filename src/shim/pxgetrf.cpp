#include "shim/pxgetrf.hpp"

#include "layout/descriptor.hpp"

namespace hetscal::shim::getrf_detail {
namespace {

layout::MatrixArgument submatrix(int m, int n, int ia, int ja, const int* desca) {
  return {m, kM, n, kN, ia, ja, desca, kDescA};
}

}  // namespace

int local_argument_info(int m, int n, int ia, int ja, const int* desca) {
  using namespace layout::field9;
  const layout::BlacsGridView grid = grid_of(desca);
  if (grid.nprow == -1) return -(kDescA * 100 + kCtxt);
  const int info = layout::check_matrix_scalapack(submatrix(m, n, ia, ja, desca), grid);
  if (info != 0) return info;
  const int mb = desca[kMb - 1], nb = desca[kNb - 1];
  if ((ia - 1) % mb != 0) return -kIa;
  if ((ja - 1) % nb != 0) return -kJa;
  if (mb != nb) return -(kDescA * 100 + kNb);
  return 0;
}

int agreed_argument_info(int m, int n, int ia, int ja, const int* desca, int local_info) {
  return agreed_matrix_info(submatrix(m, n, ia, ja, desca), local_info);
}

bool quick_return(int m, int n, const int* desca, int* ipiv) {
  if (desca[layout::field9::kM - 1] == 1) {
    ipiv[0] = 1;  // PDGETRF's answer for a one-row A, even when sub(A) is empty
    return true;
  }
  return m == 0 || n == 0;
}

}  // namespace hetscal::shim::getrf_detail
