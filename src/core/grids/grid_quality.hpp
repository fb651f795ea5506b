#pragma once
/// @file grid_quality.hpp
/// Figures of merit of a planned grid (Boudet, Petitet, Rastello & Robert 1999, §4.1 and
/// §5.3): work per unit of time, the homogeneous block-cyclic baseline, the predicted
/// speedup, per-processor load and the communication volume of the grid shape.
#include <cstddef>
#include <vector>

#include "core/grids/grid_shares.hpp"

namespace hetscal::core {

/// Load of one processor under rational shares.
struct ProcessorLoad {
  std::size_t processor = 0;  ///< index in the caller's list
  std::size_t row = 0;        ///< grid position
  std::size_t col = 0;
  double work_fraction = 0.0;  ///< r_i·c_j / (Σr·Σc): its part of every matrix update
  double busy_fraction = 0.0;  ///< r_i·t_ij·c_j / max: time busy while the slowest works
};

/// Per-processor loads, row-major over the grid.
/// @throws InvalidArgument if the shares do not match the grid.
std::vector<ProcessorLoad> processor_loads(const Arrangement& a, const Shares& s);

/// Words received per rank-1 update of an n×n outer-product GEMM (or LU/QR trailing
/// update) on a p×q grid: the update's column of A is broadcast along every grid row,
/// and each of the q−1 non-owners of a grid row receives that row's part (the parts add
/// up to n over the grid rows), hence n·(q−1); likewise the row of B along the grid
/// columns, n·(p−1). Total n·(p+q−2), independent of the shares r, c (whole lines move,
/// whatever their sizes). Pass n = 1 for the volume per matrix row/column.
double words_per_rank1_update(std::size_t p, std::size_t q, double n = 1.0);

/// Summary figures of a plan.
struct GridFigures {
  double work_per_time = 0.0;          ///< W = (Σr)(Σc) / max r_i·t_ij·c_j
  double cyclic_work_per_time = 0.0;   ///< W of the block-cyclic distribution, p·q / max t
  double predicted_speedup = 0.0;      ///< W / W_cyclic (§5.3)
  double words_per_update = 0.0;       ///< words_per_rank1_update(p, q, 1)
  double min_busy_fraction = 0.0;      ///< least busy processor (1 = perfect balance)
  /// W / Σ 1/t_ij: the fraction of the grid's total speed put to work (the busy fractions
  /// averaged with the processor speeds as weights; 1 = perfect balance).
  double efficiency = 0.0;
};

/// The figures of one arrangement and its shares.
/// @throws InvalidArgument if the shares do not match the grid.
GridFigures grid_figures(const Arrangement& a, const Shares& s);

}  // namespace hetscal::core
