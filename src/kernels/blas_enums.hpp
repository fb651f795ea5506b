#pragma once
/// @file blas_enums.hpp
/// Options of local BLAS calls as enums: characters are parsed only at the ABI boundary.

namespace hetscal::kernels {

enum class Op { NoTrans, Trans };
enum class Side { Left, Right };
enum class Uplo { Lower, Upper };
enum class Diag { NonUnit, Unit };

}  // namespace hetscal::kernels
