#pragma once
/// @file gemm_case.hpp
/// Random PxGEMM cases drawn from a seed, identically on every rank (no communication), in
/// any of the four precisions: the same shapes, layouts and real parts for all four; complex
/// cases add imaginary parts to the operands and to the general ALPHA and BETA.
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "random_case.hpp"

namespace hetscal_test {

/// Mixed into a case's seed for the imaginary parts (a stream apart from the real parts').
inline constexpr std::uint64_t kImaginaryStream = 0x1A6;

/// One call: sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C).
struct GemmCase {
  std::uint64_t seed = 0;  ///< operands are formulas of this seed
  char trans_a = 'N', trans_b = 'N';
  int m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;
  /// Imaginary parts for complex precisions: 0 when alpha (beta) is 0, 1 or -1, so that the
  /// special values stay special.
  double alpha_imag = 0.0, beta_imag = 0.0;
  int ia = 1, ja = 1, ib = 1, jb = 1, ic = 1, jc = 1;  ///< 1-based, as PDGEMM takes them
  MatrixLayout a, b, c;

  /// beta = 0 never reads C: sub(C) then holds NaN.
  bool c_holds_nan() const { return beta == 0.0; }
  /// A call hetscal may compute rather than forward or return from at once.
  bool computable() const { return m > 0 && n > 0 && k > 0 && alpha != 0.0; }
  /// ALPHA and BETA in scalar type T.
  template <typename T>
  T alpha_as() const {
    return scalar<T>(alpha, alpha_imag);
  }
  template <typename T>
  T beta_as() const {
    return scalar<T>(beta, beta_imag);
  }
  /// Element (i, l) of op(sub(A)) (0-based inside the submatrix), A's elements of type T
  /// ('C' conjugates on complex data).
  template <typename T>
  T op_a(int i, int l) const {
    return trans_a == 'N' ? element<T>(Matrix::A, ia - 1 + i, ja - 1 + l)
                          : op_element<T>(trans_a, Matrix::A, ia - 1 + l, ja - 1 + i);
  }
  /// Element (l, j) of op(sub(B)).
  template <typename T>
  T op_b(int l, int j) const {
    return trans_b == 'N' ? element<T>(Matrix::B, ib - 1 + l, jb - 1 + j)
                          : op_element<T>(trans_b, Matrix::B, ib - 1 + j, jb - 1 + l);
  }
  /// Global element (i, j) (0-based) of a matrix of the case in scalar type T: the real
  /// precisions' value, plus an imaginary part of its own on complex data.
  template <typename T>
  T element(Matrix matrix, int i, int j) const {
    return scalar<T>(global_value(seed, matrix, i, j),
                     global_value(mix(seed, kImaginaryStream), matrix, i, j));
  }
  /// One line describing the case (for failure reports).
  std::string describe() const;

 private:
  template <typename T>
  static T scalar(double re, double im) {
    if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(re);
    } else {
      using Real = typename T::value_type;
      return T(static_cast<Real>(re), static_cast<Real>(im));
    }
  }
  template <typename T>
  T op_element(char trans, Matrix matrix, int i, int j) const {
    const T value = element<T>(matrix, i, j);
    if constexpr (std::is_floating_point_v<T>) {
      return value;
    } else {
      return trans == 'C' ? std::conj(value) : value;
    }
  }
};

/// Draws a case for a grid of nprow × npcol processes, M, N, K at most max_dimension.
GemmCase draw_gemm_case(std::uint64_t seed, int nprow, int npcol, int max_dimension);

}  // namespace hetscal_test
