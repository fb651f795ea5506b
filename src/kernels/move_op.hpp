#pragma once
/// @file move_op.hpp
/// The redistribution that applies a BLAS op while moving an operand: how the kernels and
/// the runtime fuse op(A) into the move instead of transposing in place.
#include "core/common/error.hpp"
#include "kernels/blas_enums.hpp"
#include "kernels/scalar.hpp"
#include "mpi/redistribution_plan.hpp"

namespace hetscal::kernels {

/// op as a move of an operand of scalar type T (ConjTrans is a plain transpose on real data).
template <typename T>
mpi::Op move_op(Op op) {
  switch (op) {
    case Op::NoTrans: return mpi::Op::None;
    case Op::Trans: return mpi::Op::Transpose;
    case Op::ConjTrans: return is_complex_v<T> ? mpi::Op::ConjugateTranspose : mpi::Op::Transpose;
  }
  throw InvalidArgument("unknown Op");
}

}  // namespace hetscal::kernels
