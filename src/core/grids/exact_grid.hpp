#pragma once
/// @file exact_grid.hpp
/// The exact (exponential) solution of the heterogeneous 2D grid problem of Boudet,
/// Petitet, Rastello & Robert (1999): for a fixed arrangement, the shares r_i, c_j that
/// maximise W = (Σr)(Σc) / max r_i·t_ij·c_j (§4.3), and the best arrangement of p·q
/// processors over all non-decreasing arrangements (§4.2, Theorem 1).
///
/// All shares returned here are normalised with r_1 = 1 and max r_i·t_ij·c_j = 1, so that
/// W = (Σr)(Σc).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/grids/grid_shares.hpp"

namespace hetscal::core {

/// Checks an arrangement: rows, cols >= 1, rows·cols cycle-times, each finite and > 0.
/// @throws InvalidArgument naming the problem.
void require_valid_arrangement(const Arrangement& a);

/// Optimal shares of one arrangement and what the spanning-tree search did.
struct TreeSearchResult {
  Shares shares;                       ///< r_1 = 1, tree edges at r_i·t_ij·c_j = 1
  double work_per_time = 0.0;          ///< W of `shares`
  std::uint64_t acceptable_trees = 0;  ///< complete spanning trees the search reached
};

/// §4.3.1 with Appendix 7.2's generator: spanning trees of the complete bipartite graph
/// {r_i} ∪ {c_j} grown from r_1 layer by layer, a newly reached vertex always taking its
/// tightest constraint towards the vertices already reached, so that only acceptable trees
/// are built. A vertex joins a layer only if its tightest constraint comes from the
/// previous layer; unlike the appendix, a near-tie (relative 1e-12) with an older layer is
/// admitted too, so that rounding cannot hide the optimum (duplicates are harmless).
/// The number of trees is at most Comp(p, q) of Table 5.
/// @throws InvalidArgument on an invalid arrangement or rows or cols > 32.
TreeSearchResult search_spanning_trees(const Arrangement& a);

/// The shares maximising W for arrangement `a` (search_spanning_trees().shares). Among
/// equally good trees the first found is kept.
/// @throws InvalidArgument as search_spanning_trees.
Shares optimal_shares(const Arrangement& a);

/// Independent check of optimal_shares for small grids: every subset of p+q-1 edges of the
/// complete bipartite graph that is a spanning tree (union-find) gives shares by the
/// equalities r_i·t_ij·c_j = 1 on its edges; the acceptable ones (every other product
/// <= 1 + 1e-12) are compared by W.
/// @throws InvalidArgument on an invalid arrangement or rows·cols > 20.
Shares optimal_shares_brute_force(const Arrangement& a);

/// §4.3.2's closed form for a 2×2 grid: with r_1 = 1, the optimum has r_2 = t11/t21 or
/// r_2 = t12/t22, and c_j = 1 / max_i r_i·t_ij.
/// @throws InvalidArgument on an invalid arrangement or a grid other than 2×2.
Shares optimal_shares_2x2(const Arrangement& a);

/// §4.3.3: if t is a rank-1 matrix (t_ij·t_11 = t_i1·t_1j within relative `rel_tol`),
/// r_i = t_11/t_i1 and c_j = 1/t_1j balance the load perfectly (every r_i·t_ij·c_j = 1,
/// W = Σ 1/t_ij); otherwise nullopt.
/// @throws InvalidArgument on an invalid arrangement or rel_tol < 0 or not finite.
std::optional<Shares> rank_one_shares(const Arrangement& a, double rel_tol = 1e-12);

/// The best p×q grid found by exhaustive search.
struct ExactGridResult {
  Arrangement arrangement;  ///< processor[] indexes the caller's cycle-time list
  Shares shares;            ///< optimal shares of `arrangement`
  double work_per_time = 0.0;
  std::uint64_t arrangements_searched = 0;   ///< non-decreasing arrangements tried
  std::uint64_t spanning_trees_visited = 0;  ///< acceptable trees, summed over them
};

/// The exact optimum for a p×q grid: keeps the p·q fastest processors (ties: lower index
/// first), sorts them by cycle-time and tries every non-decreasing arrangement (sufficient
/// by Theorem 1) with optimal_shares. The first arrangement reaching the best W is kept
/// (a later one must be strictly larger in floating point to replace it).
/// Cost: hook_length_count(p, q) arrangements × up to Comp(p, q) trees each; 4×4 is the
/// practical limit (about 0.5 s). Transposing an arrangement (and swapping r with c) keeps W,
/// and maps the non-decreasing arrangements of a square grid onto themselves, so half of a
/// square search is redundant; this is not exploited.
/// @param cycle_times t > 0 of every available processor; at least p·q of them.
/// @throws InvalidArgument on a bad cycle-time, p or q = 0, p + q > 32, or p·q > size.
ExactGridResult best_grid_exact(const std::vector<double>& cycle_times, std::size_t p,
                                std::size_t q);

}  // namespace hetscal::core
