#pragma once
/// @file scalar.hpp
/// The scalar types hetscal's kernels are written for (float, double, std::complex<float>,
/// std::complex<double>: ScaLAPACK's S, D, C, Z) and what a template needs to know of them.
#include <complex>
#include <type_traits>

#include "core/common/scalar_types.hpp"

namespace hetscal::kernels {

/// Whether T is one of the complex scalar types.
template <typename T>
inline constexpr bool is_complex_v = false;
template <typename R>
inline constexpr bool is_complex_v<std::complex<R>> = true;

/// The real type of T: T itself, or R for std::complex<R> (HERK's alpha and beta).
template <typename T>
struct RealOf {
  using type = T;
};
template <typename R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <typename T>
using real_of_t = typename RealOf<T>::type;

/// Whether T is one of the four scalar types of the kernels.
template <typename T>
inline constexpr bool is_blas_scalar_v = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                         std::is_same_v<T, std::complex<float>> ||
                                         std::is_same_v<T, std::complex<double>>;

}  // namespace hetscal::kernels
