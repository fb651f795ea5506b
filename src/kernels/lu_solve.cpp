// PxGETRS's solve on hetscal's layouts: row interchanges (kernels/row_permutation) and two
// distributed triangular solves (kernels/triangular_solve), in LAPACK's xGETRS order.
#include "kernels/lu_solve.hpp"

#include <complex>
#include <string>

#include "core/common/error.hpp"
#include "kernels/row_permutation.hpp"
#include "kernels/triangular_solve.hpp"

namespace hetscal::kernels {

template <typename T>
void lu_solve(Op op, DistributedMatrix<const T> a, const std::vector<std::int64_t>& pivots,
              DistributedMatrix<T> b, MPI_Comm comm) {
  if (a.distribution == nullptr) throw InvalidArgument("lu_solve: A lacks a distribution");
  if (static_cast<std::int64_t>(pivots.size()) != a.rows())
    throw InvalidArgument("lu_solve: " + std::to_string(pivots.size()) +
                          " pivots for an A of order " + std::to_string(a.rows()));
  if (op == Op::NoTrans) {
    permute_rows(b, interchange_permutation(b.rows(), pivots, SwapOrder::Forward), comm);
    triangular_solve<T>(Uplo::Lower, Op::NoTrans, Diag::Unit, a, b, comm);
    triangular_solve<T>(Uplo::Upper, Op::NoTrans, Diag::NonUnit, a, b, comm);
    return;
  }
  // The backward permutation is computed first, so that bad pivots are refused before B
  // is written.
  const std::vector<std::int64_t> back =
      interchange_permutation(b.rows(), pivots, SwapOrder::Backward);
  triangular_solve<T>(Uplo::Upper, op, Diag::NonUnit, a, b, comm);
  triangular_solve<T>(Uplo::Lower, op, Diag::Unit, a, b, comm);
  permute_rows(b, back, comm);
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_LU_SOLVE_INSTANCES)

}  // namespace hetscal::kernels
