#pragma once
/// @file grid_shares.hpp
/// A p×q arrangement of processors on a 2D grid and the shares r_i (rows) and c_j (columns)
/// given to its grid rows and columns (Boudet, Petitet, Rastello & Robert 1999, §4.1).
///
/// Processor P_ij at grid position (i, j) computes an r_i × c_j block in time r_i·t_ij·c_j.
/// The figure of merit is W = (Σ r_i)(Σ c_j) / max_ij r_i·t_ij·c_j: the work done per unit
/// of time (the paper's Obj_2 with the constraint normalised away). It does not depend on
/// the scale of r or c.
#include <cstddef>
#include <vector>

namespace hetscal::core {

/// Cycle-times laid out on a p×q grid (row-major), plus which input processor sits where.
struct Arrangement {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> cycle_time;       ///< t_ij at [i * cols + j]
  std::vector<std::size_t> processor;   ///< index into the caller's processor list, same layout

  double t(std::size_t i, std::size_t j) const { return cycle_time[i * cols + j]; }
  std::size_t at(std::size_t i, std::size_t j) const { return processor[i * cols + j]; }
};

/// Rational row and column shares of a grid; only their ratios matter.
struct Shares {
  std::vector<double> r;  ///< one per grid row
  std::vector<double> c;  ///< one per grid column
};

/// max_ij r_i·t_ij·c_j: the time of the slowest processor.
double slowest_time(const Arrangement& a, const Shares& s);

/// W = (Σr)(Σc) / max_ij r_i·t_ij·c_j. Larger is better.
double work_per_time(const Arrangement& a, const Shares& s);

/// W of the homogeneous block-cyclic distribution on the same grid (all r_i, c_j equal):
/// p·q / max t_ij.
double cyclic_work_per_time(const Arrangement& a);

}  // namespace hetscal::core
