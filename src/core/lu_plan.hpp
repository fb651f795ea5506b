#pragma once
/// @file lu_plan.hpp
/// The LU planner's families of distribution (the planner itself, choose_lu_plan, follows:
/// it prices each family with the LU time model and keeps the fastest that fits in memory).
namespace hetscal::core {

/// The families of distribution the LU planner prices.
enum class LuLayoutKind {
  CallerLayout,       ///< the caller's block-cyclic layout as it is (no redistribution)
  BlockCyclic,        ///< 2DBC on every grid p×q = k
  HeterogeneousGrid,  ///< the grid planner's p×q grid, tile columns in seed 000's LU order
  G2dbc,              ///< G-2DBC (seed 002 §IV), any process count
  HeteroPattern,      ///< hetscal's heterogeneous pattern (cells in proportion to speed)
};

/// "caller layout", "2DBC", "hetero grid", "G-2DBC", "hetero pattern".
const char* lu_layout_name(LuLayoutKind kind);

}  // namespace hetscal::core
