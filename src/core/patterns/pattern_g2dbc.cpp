#include "core/patterns/pattern_g2dbc.hpp"

#include <string>
#include <vector>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

int ceil_sqrt(int n) {
  int root = 0;
  while (root * root < n) ++root;
  return root;
}

}  // namespace

G2dbcParameters g2dbc_parameters(int num_nodes) {
  if (num_nodes < 1) {
    throw InvalidArgument("G-2DBC: P = " + std::to_string(num_nodes) + " must be >= 1");
  }
  G2dbcParameters p;
  p.a = ceil_sqrt(num_nodes);
  p.b = (num_nodes + p.a - 1) / p.a;
  p.c = p.a * p.b - num_nodes;
  return p;
}

Pattern g2dbc_pattern(int num_nodes) {
  const auto [a, b, c] = g2dbc_parameters(num_nodes);
  // IP(i, j) = i·a + j; its undefined cells are (b−1, j) for j >= a − c.
  const auto incomplete = [a = a](int i, int j) { return i * a + j; };
  if (b == 1) {
    std::vector<int> owners(static_cast<std::size_t>(num_nodes));
    for (int j = 0; j < num_nodes; ++j) owners[j] = incomplete(0, j);
    return Pattern(1, num_nodes, num_nodes, std::move(owners));
  }
  const int rows = b * (b - 1);
  std::vector<int> owners;
  owners.reserve(static_cast<std::size_t>(rows) * num_nodes);
  for (int block = 0; block < b - 1; ++block) {  // block row built from P_{block+1}
    for (int i = 0; i < b; ++i) {
      for (int copy = 0; copy < b - 1; ++copy) {
        for (int j = 0; j < a; ++j) {
          const bool undefined = i == b - 1 && j >= a - c;
          owners.push_back(undefined ? incomplete(block, j) : incomplete(i, j));
        }
      }
      for (int j = 0; j < a - c; ++j) owners.push_back(incomplete(i, j));  // LP
    }
  }
  return Pattern(rows, num_nodes, num_nodes, std::move(owners));
}

double g2dbc_cost_formula(int num_nodes) {
  const auto [a, b, c] = g2dbc_parameters(num_nodes);
  if (b == 1) return a + b;
  const double column_total =
      static_cast<double>(b) * b * (a - c) + static_cast<double>(b - 1) * (b - 1) * c;
  return a + column_total / num_nodes;
}

}  // namespace hetscal::core
