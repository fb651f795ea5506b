#pragma once
/// @file factor_solve.hpp
/// What hetero_pdpotrs and hetero_pdgetrs share: sub(A)·X = sub(B) solved with a factor
/// already in sub(A), the factor used in place on a hetscal descriptor (B in place, or moved
/// in and back from a ScaLAPACK descriptor) or both moved from ScaLAPACK descriptors into the
/// layout the factorisation plans; argument checks with ScaLAPACK's codes before any write.
#include <mpi.h>

#include <functional>

#include "api/lapack_outcome.hpp"
#include "core/time_models/time_model.hpp"
#include "kernels/distributed_matrix.hpp"
#include "layout/descriptor.hpp"
#include "mpi/blacs_context.hpp"

namespace hetscal::api {

/// Where a solve routine's arguments N, NRHS, DESCA and DESCB stand in its list (1-based;
/// IA, JA and IB, JB two and one before their descriptors, as in every ScaLAPACK routine).
struct SolvePositions {
  int n, nrhs, desc_a, desc_b;
};

/// One solve call on elements of type T.
template <typename T>
struct FactorSolve {
  FactorSolve(core::Routine factorisation, int order, int rhs, const T* factors, int ia, int ja,
              const int* desca, T* rhs_data, int ib, int jb, const int* descb, SolvePositions at)
      : routine(factorisation),
        n(order),
        nrhs(rhs),
        a(factors),
        b(rhs_data),
        arg_a{order, at.n, order, at.n, ia, ja, desca, at.desc_a},
        arg_b{order, at.n, rhs, at.nrhs, ib, jb, descb, at.desc_b} {}

  core::Routine routine;  ///< the factorisation: plans moved operands
  int n, nrhs;
  const T* a;
  T* b;
  layout::MatrixArgument arg_a, arg_b;
  int scalar_info = 0;  ///< INFO of the scalar arguments (options, N, NRHS): 0 when valid
  /// The routine's own input beside A and B (the pivots), checked once the operands are:
  /// its INFO, 0 when valid. `grid` is A's BLACS grid when A is on a ScaLAPACK descriptor
  /// (then called on every process of it, so it may communicate), nullptr for a hetscal A.
  /// Empty: nothing more to check.
  std::function<int(const mpi::ContextInfo* grid)> check_more;
  /// X := op(A)⁻¹·X with the factor in place.
  std::function<void(kernels::DistributedMatrix<const T> a, kernels::DistributedMatrix<T> x,
                     MPI_Comm comm)>
      solve;
};

/// Checks the call (ScaLAPACK's INFO, the same on every process, nothing written on error),
/// moves what lives on ScaLAPACK descriptors, solves and moves X back into sub(B).
/// Descriptor codes: a ScaLAPACK DESCB beside a hetscal DESCA is accepted, the reverse is
/// DESCB's DTYPE field; hetscal descriptors of another context are their CTXT field.
template <typename T>
LapackOutcome solve_with_factor(const FactorSolve<T>& call);

}  // namespace hetscal::api
