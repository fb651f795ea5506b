#include "shim/pxpotrf.hpp"

#include <mpi.h>

#include "layout/descriptor.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi/caller_matrix.hpp"
#include "mpi/mpi_error.hpp"
#include "shim/pblas_symbols.hpp"

namespace hetscal::shim::potrf_detail {
namespace {

layout::BlacsGridView grid_of(const int* desca) {
  layout::BlacsGridView grid;
  grid.context = desca[layout::field9::kCtxt - 1];
  Cblacs_gridinfo(grid.context, &grid.nprow, &grid.npcol, &grid.myrow, &grid.mycol);
  return grid;
}

layout::MatrixArgument square_submatrix(int n, int ia, int ja, const int* desca) {
  return {n, kN, n, kN, ia, ja, desca, kDescA};
}

// PCHK1MAT compares UPLO as 'U' or 'L' (anything but 'U' counts as 'L').
bool same_uplo_everywhere(const char* uplo, MPI_Comm comm) {
  const int letter = runtime::parse_uplo(uplo) == kernels::Uplo::Upper ? 'U' : 'L';
  int bounds[2] = {letter, -letter};  // min and -max in one reduction
  mpi::check_mpi(MPI_Allreduce(MPI_IN_PLACE, bounds, 2, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  return bounds[0] == -bounds[1];
}

}  // namespace

bool in_grid(const int* desca) { return grid_of(desca).nprow != -1; }

int local_argument_info(const char* uplo, int n, int ia, int ja, const int* desca) {
  using namespace layout::field9;
  const layout::BlacsGridView grid = grid_of(desca);
  if (grid.nprow == -1) return -(kDescA * 100 + kCtxt);
  const int info = layout::check_matrix_scalapack(square_submatrix(n, ia, ja, desca), grid);
  if (info != 0) return info;
  const int mb = desca[kMb - 1], nb = desca[kNb - 1];
  if (!runtime::parse_uplo(uplo)) return -kUplo;
  if ((ia - 1) % mb != 0) return -kIa;
  if ((ja - 1) % nb != 0) return -kJa;
  if (mb != nb) return -(kDescA * 100 + kNb);
  return 0;
}

int agreed_argument_info(const char* uplo, int n, int ia, int ja, const int* desca,
                         int local_info) {
  const int context = desca[layout::field9::kCtxt - 1];
  const mpi::ContextInfo& grid = mpi::context_info(context);
  // UPLO is PCHK1MAT's extra value at position 1: a difference outranks every other code.
  const bool uplo_agreed = same_uplo_everywhere(uplo, grid.comm);
  int info = 0;
  try {
    // Recomputes CHK1MAT, keeps the earlier of it and PxPOTRF's own codes (local_info is one
    // or the other), compares every value with grid position (0,0)'s, reduces over the grid.
    mpi::describe_caller_matrix(grid, context, square_submatrix(n, ia, ja, desca),
                                mpi::CheckRules::Scalapack, local_info);
  } catch (const mpi::DescriptorError& e) {
    info = e.info();
  }
  return uplo_agreed ? info : -kUplo;
}

}  // namespace hetscal::shim::potrf_detail
