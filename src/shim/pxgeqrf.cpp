#include "shim/pxgeqrf.hpp"

#include <array>

#include "layout/block_cyclic.hpp"
#include "layout/descriptor.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::shim::geqrf_detail {
namespace {

layout::MatrixArgument submatrix(int m, int n, int ia, int ja, const int* desca) {
  return {m, kM, n, kN, ia, ja, desca, kDescA};
}

// NUMROC of `count` indices from `first` (0-based) widened to its block's start: MP0 / NQ0.
std::int64_t widened_local_count(const layout::CyclicAxis& axis, std::int64_t first,
                                 std::int64_t count, int proc) {
  const std::int64_t offset = first % axis.block;  // 9-entry descriptor: IMB = MB
  const layout::CyclicAxis widened{count + offset, axis.block, axis.block,
                                   layout::owner_coordinate(axis, first), axis.nprocs};
  return layout::local_extent(widened, proc);
}

}  // namespace

std::int64_t minimum_workspace(int m, int n, int ia, int ja, const int* desca) {
  const layout::Descriptor a = layout::Descriptor::parse(desca);
  const layout::BlacsGridView grid = grid_of(desca);
  const std::int64_t mp0 = widened_local_count(a.row_axis(grid.nprow), ia - 1, m, grid.myrow);
  const std::int64_t nq0 = widened_local_count(a.col_axis(grid.npcol), ja - 1, n, grid.mycol);
  return a.nb * (mp0 + nq0 + a.nb);
}

int local_argument_info(int m, int n, int ia, int ja, const int* desca, int lwork) {
  using namespace layout::field9;
  const layout::BlacsGridView grid = grid_of(desca);
  if (grid.nprow == -1) return -(kDescA * 100 + kCtxt);
  const int info = layout::check_matrix_scalapack(submatrix(m, n, ia, ja, desca), grid);
  if (info != 0) return info;
  if (lwork != -1 && lwork < minimum_workspace(m, n, ia, ja, desca)) return -kLwork;
  return 0;
}

AgreedArguments agreed_arguments(int m, int n, int ia, int ja, const int* desca, int lwork, int local_info) {
  // Whether every rank queries, and whether any does, as two minima ({q, -q}) riding on the
  // argument agreement's reduction: one collective for both.
  const int query = lwork == -1 ? 1 : 0;
  std::array<int, 2> queries{query, -query};
  AgreedArguments agreed;
  agreed.info = agreed_matrix_info(submatrix(m, n, ia, ja, desca), local_info, &queries);
  const bool everywhere = queries[0] == 1, somewhere = queries[1] == -1;
  agreed.query = everywhere ? WorkspaceQuery::Everywhere : somewhere ? WorkspaceQuery::Disagreed : WorkspaceQuery::Nowhere;
  return agreed;
}

}  // namespace hetscal::shim::geqrf_detail
