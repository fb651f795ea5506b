#pragma once
/// @file cholesky_ordering.hpp
/// The order of a heterogeneous Cartesian grid's tile rows and columns for Cholesky and LU: the 1D
/// ordering of Boudet, Petitet, Rastello & Robert (Boudet1999, §2.3.2) applied to each
/// dimension. Their greedy hands chunks out one at a time to the processor that would finish
/// its next chunk first; read backwards, every suffix of the sequence is as balanced as the
/// greedy allows. A factorisation works on a suffix of the tile rows and columns (the trailing
/// triangle from step k on), so the reversed sequence keeps each grid row's and column's
/// share of the trailing triangle close to its share r_i or c_j at every step, where the
/// forward sequence (proportional_sequence, what cartesian_ownership deals) balances the
/// prefixes — the part already factored.
#include <cstddef>
#include <vector>

#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// Grid row (or column) of each of `tiles` tile rows: counts by largest remainder of the
/// shares (each within one tile of tiles·share/Σshares), then the §2.3.2 order with those
/// counts (lu_order_with_counts with cycle-times 1/share), so that every suffix is balanced.
/// @throws InvalidArgument if shares is empty or a share is not finite and > 0, or tiles = 0.
std::vector<std::size_t> suffix_balanced_order(const std::vector<double>& shares, std::size_t tiles);

/// The same Cartesian candidate with its tile rows in suffix_balanced_order over the
/// ⌈M/tile⌉ tile rows of an M×N matrix and its tile columns over the ⌈N/tile⌉ tile columns:
/// Boudet1999's LU order (§2.3.2, §3.2), each trailing matrix balanced as it shrinks.
/// @throws InvalidArgument if the candidate is not Cartesian, its shares do not match its
///   grid or its tile is 0, or as suffix_balanced_order.
Candidate with_suffix_balanced_order(Candidate candidate, MatrixShape shape);

/// with_suffix_balanced_order over the n×n matrix; the label gains " ordered".
/// @throws InvalidArgument if the candidate is not Cartesian or its shares do not match its
///   grid, or as suffix_balanced_order.
Candidate with_cholesky_order(Candidate candidate, std::size_t n);

}  // namespace hetscal::core
