#pragma once
/// @file gemm_choice.hpp
/// Which operand a distributed GEMM keeps in place, chosen from the shapes as PBLAS's
/// PDGEMM chooses (PBLAS/SRC/pdgemm_.c): estimate the volume each algorithm communicates
/// on a p×q grid and keep C in place unless another algorithm is clearly cheaper.
#include <cstdint>

#include "kernels/gemm.hpp"
#include "layout/distribution.hpp"

namespace hetscal::kernels {

/// PBLAS's rule for op(A) = A, op(B) = B on a p×q grid, with ⌈x/p⌉ standing for NUMROC:
///   C in place  (A and B move):  V_C = K·(M/p·[q>1] + N/q·[p>1])
///   B in place  (A and C move):  V_B = M·(K/p·[q>1] + max(K/p, K/q) + 1.3·N/q·[p>1])
///   A in place  (B and C move):  V_A = N·(1.3·M/p·[q>1] + K/q·[p>1] + max(K/q, K/p))
/// C when V_C <= 1.3·V_A and V_C <= 1.3·V_B; else A when V_A <= V_B and 1.3·V_A <= V_C;
/// else B (1.3 is PBLAS's CBRATIO, the cost of a combine relative to a broadcast).
/// @pre m, n, k >= 0; nprow, npcol >= 1.
Stationary choose_stationary(std::int64_t m, std::int64_t n, std::int64_t k, int nprow, int npcol);

/// The algorithm gemm runs for `requested`: an explicit choice is kept; Automatic resolves by
/// choose_stationary on C's grid (a near-square p×q of the rank count when C is not
/// Cartesian, for which PBLAS has no rule).
Stationary resolve_stationary(Stationary requested, std::int64_t m, std::int64_t n,
                              std::int64_t k, const layout::Distribution& c);

}  // namespace hetscal::kernels
