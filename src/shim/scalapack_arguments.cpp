#include "shim/scalapack_arguments.hpp"

#include "mpi/blacs_context.hpp"
#include "mpi/caller_matrix.hpp"
#include "shim/pblas_symbols.hpp"

namespace hetscal::shim {

layout::BlacsGridView grid_of(const int* desca) {
  layout::BlacsGridView grid;
  grid.context = desca[layout::field9::kCtxt - 1];
  Cblacs_gridinfo(grid.context, &grid.nprow, &grid.npcol, &grid.myrow, &grid.mycol);
  return grid;
}

bool in_grid(const int* desca) { return grid_of(desca).nprow != -1; }

int agreed_matrix_info(const layout::MatrixArgument& a, int local_info, std::array<int, 2>* also_minimised) {
  const int context = a.desc[layout::field9::kCtxt - 1];
  // Recomputes CHK1MAT, keeps the earlier of it and the routine's own codes (local_info is
  // one or the other), compares every value with grid position (0,0)'s, reduces over the
  // grid.
  return mpi::agreed_argument_info(mpi::context_info(context), context, a, mpi::CheckRules::Scalapack,
                                   local_info, also_minimised);
}

}  // namespace hetscal::shim
