#pragma once
/// @file mpi_type.hpp
/// The one map from hetscal's C++ element types to MPI datatypes, for every message of the
/// mpi/ and kernels/ layers (redistribution, SUMMA broadcasts and reductions).
#include <mpi.h>

#include <climits>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/common/error.hpp"

namespace hetscal::mpi {

/// The MPI datatype of T: float, double, std::complex<float>, std::complex<double>, int or
/// std::int64_t. Any other T does not compile. std::complex<R> has the layout of C's
/// R _Complex (two R, real part first), hence MPI_C_FLOAT_COMPLEX and MPI_C_DOUBLE_COMPLEX,
/// which MPI_SUM reduces like complex numbers.
template <typename T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) {
    return MPI_FLOAT;
  } else if constexpr (std::is_same_v<T, double>) {
    return MPI_DOUBLE;
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    return MPI_C_FLOAT_COMPLEX;
  } else if constexpr (std::is_same_v<T, std::complex<double>>) {
    return MPI_C_DOUBLE_COMPLEX;
  } else if constexpr (std::is_same_v<T, int>) {
    return MPI_INT;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return MPI_INT64_T;
  } else {
    static_assert(!std::is_same_v<T, T>, "mpi_type: no MPI datatype for this element type");
  }
}

/// `elements` as MPI's int element count.
/// @param what the message, for the error ("gemm: panel", "redistribution message").
/// @throws InvalidArgument when it exceeds INT_MAX.
inline int mpi_count(std::int64_t elements, const char* what) {
  if (elements > INT_MAX) {
    throw InvalidArgument(std::string("hetscal: ") + what + " of " + std::to_string(elements) +
                          " elements exceeds MPI's int count");
  }
  return static_cast<int>(elements);
}

}  // namespace hetscal::mpi
