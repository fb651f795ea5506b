#pragma once
/// @file abi_options.hpp
/// The character options of the ScaLAPACK ABI turned into enums, once, for the shim and the
/// native API alike (characters are parsed only at the ABI boundary).
#include <optional>

#include "kernels/blas_enums.hpp"

namespace hetscal::runtime {

/// TRANS: 'N' / 'n' → NoTrans, 'T' → Trans, 'C' → ConjTrans (for real data the same
/// product as Trans); anything else (or a null pointer) → nullopt.
std::optional<kernels::Op> parse_trans(const char* option);

/// SIDE: 'L' → Left, 'R' → Right; anything else (or a null pointer) → nullopt.
std::optional<kernels::Side> parse_side(const char* option);

/// UPLO: 'U' → Upper, 'L' → Lower; anything else → nullopt.
std::optional<kernels::Uplo> parse_uplo(const char* option);

}  // namespace hetscal::runtime
