#pragma once
/// @file precision.hpp
/// ScaLAPACK's precision letters as the random programs' scalar types: a program built once
/// per precision gets HETSCAL_TEST_PRECISION = 's', 'd', 'c' or 'z' from CMake.
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace hetscal_test {

template <char Letter>
struct PrecisionScalar;  // no type for any other letter: such a build does not compile
template <>
struct PrecisionScalar<'s'> {
  using type = float;
};
template <>
struct PrecisionScalar<'d'> {
  using type = double;
};
template <>
struct PrecisionScalar<'c'> {
  using type = std::complex<float>;
};
template <>
struct PrecisionScalar<'z'> {
  using type = std::complex<double>;
};

/// The scalar type of precision `Letter`: float, double, std::complex<float> or <double>.
template <char Letter>
using scalar_of_t = typename PrecisionScalar<Letter>::type;

/// A program's name for precision `letter`: "p" + letter + routine + "_random".
inline std::string random_program_name(char letter, const char* routine) {
  return std::string("p") + letter + routine + "_random";
}

/// The real type of scalar type T: float for float and std::complex<float>, and so on.
template <typename T>
using real_of_t = decltype(std::abs(std::declval<T>()));

/// ScaLAPACK's letter for scalar type T: 's', 'd', 'c' or 'z'.
template <typename T>
constexpr char precision_letter() {
  if constexpr (std::is_same_v<T, float>) {
    return 's';
  } else if constexpr (std::is_same_v<T, double>) {
    return 'd';
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    return 'c';
  } else {
    static_assert(std::is_same_v<T, std::complex<double>>, "float, double or their complex");
    return 'z';
  }
}

/// ScaLAPACK's Fortran symbol of `routine` in T's precision: "p" + letter + routine + "_".
template <typename T>
std::string routine_symbol(const char* routine) {
  return std::string("p") + precision_letter<T>() + routine + "_";
}

/// The machine epsilon of T's real type.
template <typename T>
double unit_roundoff() {
  if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::epsilon();
  } else {
    return std::numeric_limits<typename T::value_type>::epsilon();
  }
}

}  // namespace hetscal_test
