#pragma once
/// @file candidate_distribution.hpp
/// The layout::Distribution of a distribution the planner priced (core::Candidate, e.g. the
/// candidate of core::choose_cholesky_plan's CholeskyChoice), owner for owner as the time
/// model saw it (core::ownership_of): a Cartesian candidate becomes a CartesianDistribution
/// whose row and column maps are the candidate's tile orders (or, without orders, its shares
/// dealt over every tile), a pattern candidate a PatternDistribution of its owner table.
/// Ranks are platform processor indices.
#include <cstdint>
#include <memory>

#include "core/time_models/time_model.hpp"
#include "layout/distribution.hpp"

namespace hetscal::layout {

/// The N×N distribution with square tiles of candidate.tile.
/// @param n the order N (>= 1).
/// @param num_ranks size of the communicator; every owner of the candidate must be below it.
/// @throws InvalidArgument for a CallerLayout candidate (the caller's descriptor describes
///   it), an inconsistent candidate (core::ownership_of), N < 1, or an owner >= num_ranks.
std::unique_ptr<Distribution> distribution_of(const core::Candidate& candidate, std::int64_t n,
                                              int num_ranks);

/// The M×N distribution with square tiles of candidate.tile (an LU's rectangular matrix): the
/// candidate's classes over ⌈M/tile⌉ tile rows and ⌈N/tile⌉ tile columns.
/// @throws InvalidArgument as above, or when M or N < 1.
std::unique_ptr<Distribution> distribution_of(const core::Candidate& candidate, std::int64_t rows,
                                              std::int64_t cols, int num_ranks);

}  // namespace hetscal::layout
