#include "shim/pxgemm.hpp"

namespace hetscal::shim::gemm_detail {
namespace {

layout::MatrixArgument argument(int rows, int rows_position, int cols, int cols_position, int i,
                                int j, const int* desc, int desc_position) {
  return {rows, rows_position, cols, cols_position, i, j, desc, desc_position};
}

}  // namespace

int check_arguments(const char* transa, const char* transb, int m, int n, int k, int ia, int ja,
                    const int* desca, int ib, int jb, const int* descb, int ic, int jc,
                    const int* descc) {
  layout::BlacsGridView grid;
  grid.context = desca[1];
  Cblacs_gridinfo(grid.context, &grid.nprow, &grid.npcol, &grid.myrow, &grid.mycol);
  if (grid.nprow == -1) return -(kDescA * 100 + layout::field11::kCtxt);
  const auto trans_a = runtime::parse_trans(transa), trans_b = runtime::parse_trans(transb);
  int info = 0;
  if (!trans_a) {
    info = -kTransA;
  } else if (!trans_b) {
    info = -kTransB;
  }
  const bool nota = trans_a == kernels::Op::NoTrans, notb = trans_b == kernels::Op::NoTrans;
  info = layout::check_matrix_pblas(nota ? argument(m, kM, k, kK, ia, ja, desca, kDescA)
                                         : argument(k, kK, m, kM, ia, ja, desca, kDescA), grid, info);
  info = layout::check_matrix_pblas(notb ? argument(k, kK, n, kN, ib, jb, descb, kDescB)
                                         : argument(n, kN, k, kK, ib, jb, descb, kDescB), grid, info);
  return layout::check_matrix_pblas(argument(m, kM, n, kN, ic, jc, descc, kDescC), grid, info);
}

}  // namespace hetscal::shim::gemm_detail
