/// @file bench_table_one.cpp
/// Writes Beaumont2023's Table I as hetscal's core builds it, as CSV on standard output, one
/// row per node count P: the best 2DBC grid and its LU cost T = r + c and symmetric cost, the
/// G-2DBC pattern and its T (Table I(a)), the cheapest GCR&M pattern found and its z̄ (Table
/// I(b)), each next to the paper's printed value where the table has one (P = 23, 31, 35, 39;
/// empty otherwise). tests/report draws the figure from it.
/// Usage: bench_table_one [P_LIST (default 23,31,35,39) [GCRM_SEEDS_PER_SIZE (default 25)]]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/common/error.hpp"
#include "core/patterns/pattern_2dbc.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/patterns/pattern_gcrm.hpp"

namespace core = hetscal::core;

namespace {

/// Table I(a): T of the G-2DBC pattern; Table I(b): size r and z̄ of the GCR&M pattern.
const std::map<int, double> kPaperG2dbcCost{{23, 9.261}, {31, 11.194}, {35, 11.857}, {39, 12.615}};
const std::map<int, std::pair<int, double>> kPaperGcrm{
    {23, {22, 6.045}}, {31, {31, 7.065}}, {35, {15, 7.4}}, {39, {27, 7.926}}};

/// A positive integer from a command-line field.
/// @throws hetscal::InvalidArgument naming `what` when `text` is not one.
int positive(const std::string& text, const char* what) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value <= 0 || value > 4096)
    throw hetscal::InvalidArgument(std::string(what) + " '" + text + "' is not an integer in 1..4096");
  return static_cast<int>(value);
}

std::vector<int> node_counts(const std::string& list) {
  std::vector<int> counts;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    counts.push_back(positive(list.substr(start, comma - start), "node count"));
    start = comma + 1;
  }
  return counts;
}

std::string shape(const core::Pattern& p) {
  return std::to_string(p.rows()) + "x" + std::to_string(p.cols());
}

void print_row(int nodes, int seeds) {
  const core::Pattern cyclic = core::best_block_cyclic(nodes);
  const core::Pattern cyclic_symmetric = core::best_block_cyclic(nodes, core::Factorization::Cholesky);
  const core::Pattern g2dbc = core::g2dbc_pattern(nodes);
  core::GcrmSearchOptions options;
  options.seeds_per_size = seeds;
  const core::GcrmResult gcrm = core::best_gcrm(nodes, options);
  std::printf("%d,%s,%.4f,%.4f,%s,%.4f,", nodes, shape(cyclic).c_str(), core::lu_cost(cyclic),
              core::cholesky_cost(cyclic_symmetric), shape(g2dbc).c_str(), core::lu_cost(g2dbc));
  if (kPaperG2dbcCost.count(nodes) != 0) std::printf("%.3f", kPaperG2dbcCost.at(nodes));
  std::printf(",%d,%.4f,", gcrm.size, gcrm.cost);
  if (kPaperGcrm.count(nodes) != 0)
    std::printf("%d,%.3f", kPaperGcrm.at(nodes).first, kPaperGcrm.at(nodes).second);
  else
    std::printf(",");
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<int> counts = node_counts(argc > 1 ? argv[1] : "23,31,35,39");
    const int seeds = argc > 2 ? positive(argv[2], "seeds per size") : 25;
    std::printf("p,cyclic_shape,cyclic_T,cyclic_sym_T,g2dbc_shape,g2dbc_T,paper_g2dbc_T,gcrm_r,gcrm_T,"
                "paper_gcrm_r,paper_gcrm_T\n");
    for (const int nodes : counts) print_row(nodes, seeds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_table_one: %s\n", e.what());
    return 2;
  }
  return 0;
}
