/// @file triangular_solve.cpp
/// Driver of the distributed triangular solve (triangular_solve.hpp): argument checks, the
/// quick return, and the algorithm: fan-in (triangular_solve_fan_in.hpp) for few right-hand
/// sides, gathered panels (triangular_solve_gather.hpp) for many. Scalar types are
/// instantiated here only.
#include "kernels/triangular_solve.hpp"

#include <complex>
#include <string>

#include "core/common/error.hpp"
#include "kernels/triangular_solve_fan_in.hpp"
#include "kernels/triangular_solve_gather.hpp"
#include "kernels/view_checks.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::kernels {
namespace {

/// Checks every argument; returns this rank's rank in `comm`. @throws InvalidArgument
template <typename T>
int check_arguments(const DistributedMatrix<const T>& a, const DistributedMatrix<T>& b,
                    MPI_Comm comm) {
  int size = 0, rank = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  mpi::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_view(a, "triangular_solve: A", size, rank);
  check_view(b, "triangular_solve: B", size, rank);
  if (a.distribution->rows() != a.distribution->cols())
    throw InvalidArgument("triangular_solve: A (" + std::to_string(a.rows()) + "x" +
                          std::to_string(a.cols()) + ") is not square with square tiles");
  if (b.distribution->rows() != a.distribution->rows())
    throw InvalidArgument("triangular_solve: B's " + std::to_string(b.rows()) +
                          " rows are not split into A's tile rows");
  return rank;
}

}  // namespace

template <typename T>
void triangular_solve(Uplo uplo, Op op, Diag diag, DistributedMatrix<const T> a,
                      DistributedMatrix<T> b, MPI_Comm comm, SolveAlgorithm algorithm) {
  const int my_rank = check_arguments(a, b, comm);
  if (a.rows() == 0 || b.cols() == 0) return;  // global sizes: every rank returns here
  if (algorithm == SolveAlgorithm::Automatic)
    algorithm = b.cols() <= a.distribution->rows().block() ? SolveAlgorithm::FanIn
                                                           : SolveAlgorithm::GatherPanels;
  const detail::SolveCall<T> call{uplo, op, diag, a, b, comm, my_rank};
  if (algorithm == SolveAlgorithm::FanIn) {
    detail::FanInSolve<T>(call).run();
  } else {
    detail::GatherPanelsSolve<T>(call).run();
  }
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_TRIANGULAR_SOLVE_INSTANCES)

}  // namespace hetscal::kernels
