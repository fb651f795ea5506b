#pragma once
/// @file model_rauber_runger.hpp
/// Runtime formulas of RauberRunger1995 (Rauber & Rünger, "Optimal Data Distributions for LU
/// Decomposition"): LU without pivoting on the parametrized distribution ((m0,b0),(m1,b1)) of
/// p = m0·m1 processors, with machine parameters t_op, t_c, τ and the hypercube broadcast
/// t_broad(p, M) = (1 + log2 p)(M·t_c + τ) of their equation (1).
///
/// Three levels of the same model:
/// - lu_time_exact:        Lemma 7 (T1), the counts of the real index sets I_q, step by step;
/// - lu_time_bounded:      Lemma 8 (T2), the per-step upper bounds summed step by step;
/// - lu_time_closed_form:  Lemma 9 (T3), Lemma 8 summed in closed form for the hypercube.
/// T1 <= T2 == T3 (tested). Lemma 10, 13 and the decomposition (5)–(7) work on T3.
#include <cstddef>

namespace hetscal::core::rauber_runger {

/// The machine model of §2. Times in seconds (any unit works if used consistently).
struct MachineParameters {
  double t_op = 0.0;  ///< time of one arithmetic operation
  double t_c = 0.0;   ///< transfer time of one matrix element (the paper counts elements)
  double tau = 0.0;   ///< start-up time of one message
};

/// The distribution vector ((m0, b0), (m1, b1)): m0 × m1 processors, blocks of b0 × b1.
struct Distribution {
  std::size_t m0 = 1;
  std::size_t b0 = 1;
  std::size_t m1 = 1;
  std::size_t b1 = 1;
  std::size_t processors() const { return m0 * m1; }
};

/// Single broadcast on a hypercube of `processors` nodes, eq. (1): (1 + log2 p)(M·t_c + τ).
/// @pre processors >= 1, words >= 0.
double broadcast_time(const MachineParameters& machine, double processors, double words);

/// Lemma 7 (T1): the maxima over processors of the exact element counts of distribution (2),
/// for steps m = 1..n-1. Cost O(n·(n + m0·m1)).
/// @throws InvalidArgument if n < 1, a parameter is 0, or b_i > n / m_i.
double lu_time_exact(const MachineParameters& machine, std::size_t n, const Distribution& d);

/// Lemma 8 (T2): the bounds (n-m+1)/m1 + b1 and (n-m)/m0 + b0 summed over m = 1..n-1.
/// @throws InvalidArgument as lu_time_exact.
double lu_time_bounded(const MachineParameters& machine, std::size_t n, const Distribution& d);

/// Lemma 9 (T3): T2 in closed form for the hypercube broadcast. Real-valued in m0, m1, b0,
/// b1 so that it can be minimised as a function of reals.
/// @pre n >= 1, m0, m1 >= 1, b0, b1 >= 1.
double lu_time_closed_form(const MachineParameters& machine, double n, double m0, double b0,
                           double m1, double b1);

/// Convenience overload of the closed form for an integer distribution.
double lu_time_closed_form(const MachineParameters& machine, std::size_t n, const Distribution& d);

/// The paper's expression for T3((p,1),(1,1)) − T3((1,1),(p,1)) (row- minus column-cyclic):
/// (n−1)((1 + log p)t_c + n/(2p)·t_op − t_c/p − n/2·t_op).
double row_minus_column_cyclic(const MachineParameters& machine, double n, double p);

/// Lemma 10's bound n* = (t_c/t_op)·2(p(1 + log p) − 1)/(p − 1). The difference above is > 0
/// exactly when n < n*.
/// @pre p > 1, t_op > 0.
double lemma10_threshold(const MachineParameters& machine, double p);

/// Which of the two one-dimensional cyclic distributions Lemma 9 predicts faster.
enum class CyclicDirection { RowCyclic, ColumnCyclic };

/// The faster of row-cyclic ((p,1),(1,1)) and column-cyclic ((1,1),(p,1)) by T3 (ties go to
/// row-cyclic). Note: the formulas give ColumnCyclic for n < n*, the opposite of the
/// sentence of Lemma 10 (see the test and the report).
CyclicDirection faster_cyclic_direction(const MachineParameters& machine, std::size_t n,
                                        std::size_t p);

/// T3 with b0 = b1 = 1 split as eq. (5)–(7): T3 = constant + symmetric + asymmetric.
struct TimeParts {
  double constant = 0.0;    ///< T_C: independent of (m0, m1) once m0·m1 = p
  double symmetric = 0.0;   ///< T_S: symmetric in m0 and m1
  double asymmetric = 0.0;  ///< T_A: pivot-column broadcast and the one-column factor work
  double total() const { return constant + symmetric + asymmetric; }
};

/// Eq. (5)–(7) for real m0, m1 (p = m0·m1).
TimeParts time_parts(const MachineParameters& machine, double n, double m0, double m1);

/// Lemma 13: the real m0 minimising T_S(m0, p/m0), found numerically (golden section over
/// log m0 in [0, log p]); the lemma says √p.
/// @pre p >= 1, n >= 2.
double symmetric_part_minimiser(const MachineParameters& machine, double n, double p);

/// The real m0 minimising the whole T3(m0, 1, p/m0, 1) (T_C + T_S + T_A), found the same
/// way: how far the asymmetric part moves the optimum away from √p.
double full_formula_minimiser(const MachineParameters& machine, double n, double p);

/// The integer optimum of Definition 11: minimises T3 over every m0·m1 = p and every
/// 1 <= b_i <= n/m_i. Ties go to the smaller m0, then smaller b0, b1.
/// @throws InvalidArgument if n < 1 or p < 1 or p > n·n.
Distribution optimal_distribution(const MachineParameters& machine, std::size_t n, std::size_t p);

}  // namespace hetscal::core::rauber_runger
