#pragma once
/// @file gemm.hpp
/// Distributed matrix multiply on any Distribution: C = alpha·op(A)·op(B) + beta·C.
#include <mpi.h>

#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"

namespace hetscal::kernels {

/// Which operand stays in place while the others move (PBLAS chooses the same way): C for
/// the usual outer-product SUMMA, A or B when K is much larger than the other dimensions
/// (partial products of C are then reduced instead of broadcasting panels of A and B).
enum class Stationary { Automatic, C, A, B };

/// C = alpha·op(A)·op(B) + beta·C on the ranks of `comm` (collective).
/// op(A) is M×K, op(B) is K×N, C is M×N; the three distributions may differ (any
/// Distribution), the kernel is fastest when op(A)'s tile rows follow C's tile rows and
/// op(B)'s tile columns follow C's tile columns, as the planner lays them out.
/// Semantics as PBLAS: beta = 0 never reads C (it may hold NaN); alpha = 0 or K = 0 only
/// scales C. Every local operation goes through kernels/local_blas.hpp (flop accounting).
/// @throws InvalidArgument when the shapes do not conform.
template <typename T>
void gemm(Op op_a, Op op_b, T alpha, DistributedMatrix<const T> a, DistributedMatrix<const T> b,
          T beta, DistributedMatrix<T> c, MPI_Comm comm, Stationary stationary = Stationary::Automatic);

}  // namespace hetscal::kernels
