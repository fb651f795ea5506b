#pragma once
/// @file geqrf_case.hpp
/// Random PxGEQRF cases (any precision) drawn from a seed, identically on every rank (no
/// communication): square, tall and wide sub(A) of 0..D rows and columns at any IA/JA
/// (PxGEQRF accepts offsets inside blocks and MB != NB), RSRC/CSRC != 0, padded LLD, now and
/// then a zero column, entries scaled by a tiny or a huge power of two (2^∓990 in double,
/// 2^∓94 in single: no overflow, ScaLAPACK has none there), the 11-entry descriptor type
/// (refused: -601), and LWORK exactly LWMIN, more, one less (refused: -9), or a workspace
/// query alone. Complex cases have an imaginary part of their own in every entry.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "precision.hpp"
#include "random_case.hpp"

namespace hetscal_test {

/// The LWORK a case passes, relative to ScaLAPACK's LWMIN on each process.
enum class Workspace { Minimum, Generous, TooSmall, QueryOnly };

/// How sub(A)'s entries are scaled: not, or by the precision's tiny or huge power of two.
enum class Scale { One, Tiny, Huge };

/// One call: PxGEQRF(M, N, A, IA, JA, DESCA, TAU, WORK, LWORK, INFO).
struct GeqrfCase {
  std::uint64_t seed = 0;  ///< sub(A)'s entries are drawn from this seed
  int m = 0, n = 0;
  int ia = 1, ja = 1;  ///< 1-based
  MatrixLayout a;
  Scale scale = Scale::One;  ///< every entry of sub(A) is scaled by scale_of<T>()
  int zero_column = -1;  ///< a column of sub(A) (0-based) made exactly zero, or -1
  Workspace workspace = Workspace::Minimum;

  int steps() const { return m < n ? m : n; }
  /// @return ScaLAPACK's INFO for the arguments: -601 for the 11-entry descriptor type, -9
  ///         for LWORK below LWMIN, 0 when the call is accepted.
  int expected_info() const;
  /// PDGEQRF computes nothing: a refused call, a query, or M or N = 0.
  bool leaves_a() const { return expected_info() != 0 || workspace == Workspace::QueryOnly || steps() == 0; }
  /// A call hetscal may compute rather than refuse, answer as a query, return from at once,
  /// or forward because no layout of its processes fits sub(A) (min(M, N) >= P).
  bool computable(int processes) const { return !leaves_a() && steps() >= processes; }
  /// The power of two sub(A)'s entries are scaled by in scalar type T: 1, or 2^∓(E - 34) with
  /// E the largest binary exponent of T's real type (2^∓990 in double, 2^∓94 in single).
  template <typename T>
  double scale_of() const {
    const int exponent = std::numeric_limits<real_of_t<T>>::max_exponent - 34;
    return scale == Scale::One ? 1.0 : std::ldexp(1.0, scale == Scale::Tiny ? -exponent : exponent);
  }
  /// Global element (i, j) of A (0-based) inside sub(A) in scalar type T (exact: the scale
  /// is a power of two); complex entries take their imaginary part from a stream of its own.
  template <typename T>
  T value(int i, int j) const;
  /// One line describing the case (for failure reports).
  std::string describe() const;
};

/// Draws a case for a grid of nprow × npcol processes, M and N at most max_dimension.
GeqrfCase draw_geqrf_case(std::uint64_t seed, int nprow, int npcol, int max_dimension);
/// The same case with square blocks aligned alike in rows and columns (NB = MB, INB = IMB, JA
/// at IA's place in its block, A's columns padded as drawn): the cases an in-place take-over,
/// which keeps the caller's blocks as its tiles, can compute (issue 28).
GeqrfCase draw_geqrf_case_square_blocks(std::uint64_t seed, int nprow, int npcol, int max_dimension);

}  // namespace hetscal_test
