#pragma once
/// @file blas_enums.hpp
/// Options of local BLAS calls as enums: characters are parsed only at the ABI boundary.

namespace hetscal::kernels {

/// op(X) applied to an operand: X, Xᵀ, or Xᴴ (the conjugate transpose, which is Xᵀ on real
/// data, as BLAS's 'C' is 'T' for real routines).
enum class Op { NoTrans, Trans, ConjTrans };
enum class Side { Left, Right };
enum class Uplo { Lower, Upper };
enum class Diag { NonUnit, Unit };

}  // namespace hetscal::kernels
