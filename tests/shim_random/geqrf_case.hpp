#pragma once
/// @file geqrf_case.hpp
/// Random PDGEQRF cases drawn from a seed, identically on every rank (no communication):
/// square, tall and wide sub(A) of 0..D rows and columns at any IA/JA (PDGEQRF accepts
/// offsets inside blocks and MB != NB), RSRC/CSRC != 0, padded LLD, now and then a zero
/// column, entries scaled by 2^-990 or 2^990 (tiny and huge: no overflow, ScaLAPACK has
/// none there), the 11-entry descriptor type (refused: -601), and LWORK exactly LWMIN, more,
/// one less (refused: -9), or a workspace query alone.
#include <cstdint>
#include <string>

#include "random_case.hpp"

namespace hetscal_test {

/// The LWORK a case passes, relative to ScaLAPACK's LWMIN on each process.
enum class Workspace { Minimum, Generous, TooSmall, QueryOnly };

/// One call: PDGEQRF(M, N, A, IA, JA, DESCA, TAU, WORK, LWORK, INFO).
struct GeqrfCase {
  std::uint64_t seed = 0;  ///< sub(A)'s entries are drawn from this seed
  int m = 0, n = 0;
  int ia = 1, ja = 1;  ///< 1-based
  MatrixLayout a;
  double scale = 1.0;    ///< every entry of sub(A) is scaled by this power of two
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
  /// Global element (i, j) of A (0-based) inside sub(A).
  double value(int i, int j) const;
  /// One line describing the case (for failure reports).
  std::string describe() const;
};

/// Draws a case for a grid of nprow × npcol processes, M and N at most max_dimension.
GeqrfCase draw_geqrf_case(std::uint64_t seed, int nprow, int npcol, int max_dimension);

}  // namespace hetscal_test
