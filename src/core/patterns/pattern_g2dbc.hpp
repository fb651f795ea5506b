#pragma once
/// @file pattern_g2dbc.hpp
/// Generalised 2D block-cyclic pattern (G-2DBC, Beaumont et al. 2023, §IV-A) for any P.
///
/// With a = ⌈√P⌉, b = ⌈P/a⌉, c = ab − P (0 <= c < a): the incomplete b×a pattern IP holds
/// nodes 0..P−1 row-major, its last row missing its last c cells. P_i (i = 1..b−1) is IP with
/// those c cells filled by the last c nodes of IP's row i; LP is IP's first a−c columns.
/// Block row i of the b(b−1)×P pattern is b−1 copies of P_i then LP. Every row holds a
/// nodes, a column b or b−1, every node b(b−1) cells (Lemma 1), and
/// T = a + (b²(a−c) + (b−1)²c)/P <= 2√P + 2/√P (Lemma 2).
#include "core/patterns/pattern.hpp"

namespace hetscal::core {

/// The construction's parameters for P nodes.
struct G2dbcParameters {
  int a = 0;  ///< ⌈√P⌉: columns of IP, distinct nodes per pattern row
  int b = 0;  ///< ⌈P/a⌉: rows of IP
  int c = 0;  ///< ab − P: undefined cells of IP's last row
};

/// @throws InvalidArgument if P < 1.
G2dbcParameters g2dbc_parameters(int num_nodes);

/// The G-2DBC pattern, b(b−1) × P. When b = 1 (P <= 2) the construction is empty and IP
/// itself (1×P, a 2DBC pattern) is returned. @throws InvalidArgument if P < 1.
Pattern g2dbc_pattern(int num_nodes);

/// The paper's closed form of the LU cost, a + (b²(a−c) + (b−1)²c)/P (b >= 2), or a + b
/// when b = 1. @throws InvalidArgument if P < 1.
double g2dbc_cost_formula(int num_nodes);

}  // namespace hetscal::core
