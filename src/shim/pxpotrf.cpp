#include "shim/pxpotrf.hpp"

#include <mpi.h>

#include "mpi/blacs_context.hpp"
#include "mpi/mpi_error.hpp"
#include "shim/scalapack_arguments.hpp"

namespace hetscal::shim::potrf_detail {
namespace {

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
  const mpi::ContextInfo& grid = mpi::context_info(desca[layout::field9::kCtxt - 1]);
  // UPLO is PCHK1MAT's extra value at position 1: a difference outranks every other code.
  const bool uplo_agreed = same_uplo_everywhere(uplo, grid.comm);
  const int info = agreed_matrix_info(square_submatrix(n, ia, ja, desca), local_info);
  return uplo_agreed ? info : -kUplo;
}

}  // namespace hetscal::shim::potrf_detail
