#pragma once
/// @file share_rules.hpp
/// Rational row and column shares for a given arrangement, the polynomial way
/// (Boudet, Petitet, Rastello & Robert 1999, §4.4.3 and §4.4.4).
///
/// Every function here returns shares with max_ij r_i·t_ij·c_j = 1 (each grid column, or
/// each grid row, has a processor that is never idle); W = (Σr)(Σc) is then the work done
/// per unit of time.
#include <cstddef>

#include "core/grids/grid_shares.hpp"

namespace hetscal::core {

/// The arrangement mirrored about its diagonal: t'(j, i) = t(i, j), same for processor[].
Arrangement transposed(const Arrangement& a);

/// Harmonic-mean "speed" of a line of n processors as §4.4.3 defines it:
/// n / Σ 1/t (a cycle-time: smaller is faster).
/// @pre values non-empty, all > 0.
double harmonic_cycle_time(const std::vector<double>& values);

/// The r/c rule of §4.4.3. Inside the fast block (the first fast_rows × fast_cols
/// processors), compare the first column and the first row by harmonic_cycle_time; the
/// faster line fixes its side (first column faster: r_i = 1/t_i1; first row faster:
/// c_j = 1/t_1j), ties go to the longer line (and to the column when both have the same
/// length). The other side of the block follows from r_i·t_ij·c_j <= 1 inside the block;
/// the rest of the grid last: remaining columns from the rows known so far, then the
/// remaining rows from all columns (and symmetrically), so every constraint holds.
/// The paper's first example prints "c_2 = 2/max…" and "c_3 = 3/max…" but its values
/// (1/3, 1/5) are those of 1/max…: the numerators are typos.
/// @param a the arrangement.
/// @param fast_rows, fast_cols size of the fast block, 1 <= fast_rows <= a.rows, etc.
/// @return the shares, max r_i·t_ij·c_j = 1.
/// @throws InvalidArgument if the fast block is empty or larger than the grid.
Shares harmonic_rule_shares(const Arrangement& a, std::size_t fast_rows, std::size_t fast_cols);

/// For fixed r, the c maximising W: c_j = 1/k_j, k_j = max_i r_i·t_ij.
std::vector<double> best_columns_for_rows(const Arrangement& a, const std::vector<double>& r);

/// For fixed c, the r maximising W: r_i = 1/k_i, k_i = max_j c_j·t_ij.
/// (§4.4.4 prints r_i = 1/Σ_l (1/k_l), the same value for every i; the optimum is
/// r_i ∝ 1/k_i, i.e. r_i = (1/k_i)/Σ_l (1/k_l) when normalised to Σr = 1: the factor 1/k_i
/// is missing in the paper.)
std::vector<double> best_rows_for_columns(const Arrangement& a, const std::vector<double>& c);

/// Limits of the refinement loop.
struct RefinementOptions {
  /// A half-step counts as an improvement when W grows by more than this relative amount
  /// (rounding noise must not keep the loop alive).
  double relative_tolerance = 1e-12;
  /// Safety cap on half-steps; the loop normally stops long before.
  std::size_t max_half_steps = 1000;
};

/// Result of refine_shares.
struct Refinement {
  Shares shares;                ///< the best shares seen, max r_i·t_ij·c_j = 1
  double work_per_time = 0.0;   ///< W of `shares`
  std::size_t half_steps = 0;   ///< half-steps computed (each recomputes r or c)
};

/// The refinement of §4.4.4: alternately the best c for the current r and the best r for
/// the current c, starting with c as the paper does, until a full round (one c and one r
/// half-step) brings no improvement beyond the tolerance. Each half-step is optimal for
/// its side, so W never decreases.
/// @param a the arrangement.
/// @param start shares to improve (any positive scale).
/// @param options tolerance and cap.
/// @return the refined shares; W >= W(start).
/// @throws InvalidArgument if the share vectors do not match the grid or are not > 0.
Refinement refine_shares(const Arrangement& a, const Shares& start,
                         const RefinementOptions& options = {});

}  // namespace hetscal::core
