#include "blacs_grids.hpp"

#include <numeric>

#include "scalapack_abi.hpp"

namespace hetscal_test {
namespace {

std::vector<int> shuffled(std::vector<int> ranks, std::uint64_t seed) {
  Random r(seed);
  for (int i = static_cast<int>(ranks.size()) - 1; i > 0; --i) std::swap(ranks[i], ranks[r.between(0, i)]);
  return ranks;
}

// The most square factorisation with nprow <= npcol.
int square_rows(int size) {
  int rows = 1;
  for (int p = 1; p * p <= size; ++p) {
    if (size % p == 0) rows = p;
  }
  return rows;
}

}  // namespace

std::string GridSpec::describe() const {
  static const char* const names[] = {"row-major", "column-major", "gridmap shuffled", "gridmap subset",
                                      "row-major on a reversed communicator"};
  std::string text = std::to_string(nprow) + "x" + std::to_string(npcol) + " " +
                     names[static_cast<int>(kind)];
  if (!ranks.empty()) {
    text += " ranks";
    for (int r : ranks) text += " " + std::to_string(r);
  }
  return text;
}

std::vector<GridSpec> grids_for(int size, std::uint64_t seed) {
  std::vector<GridSpec> grids;
  std::vector<int> all(static_cast<std::size_t>(size));
  std::iota(all.begin(), all.end(), 0);
  for (int p = 1; p <= size; ++p) {
    if (size % p != 0) continue;
    const int q = size / p;
    grids.push_back({GridKind::RowMajor, p, q, {}});
    grids.push_back({GridKind::ColumnMajor, p, q, {}});
    grids.push_back({GridKind::ShuffledMap, p, q, shuffled(all, mix(seed, static_cast<std::uint64_t>(p)))});
  }
  if (size >= 2) {
    // Leave out rank 0 on odd counts and the last rank on even ones, so both happen.
    std::vector<int> rest = all;
    rest.erase(rest.begin() + (size % 2 == 1 ? 0 : size - 1));
    const int rows = square_rows(size - 1);
    grids.push_back({GridKind::SubsetMap, rows, (size - 1) / rows, shuffled(rest, mix(seed, 1000))});
    grids.push_back({GridKind::ReversedCommunicator, square_rows(size), size / square_rows(size), {}});
  }
  return grids;
}

// A BLACS system context on a duplicate of MPI_COMM_WORLD with the ranks reversed: BLACS
// rank r is MPI_COMM_WORLD rank size-1-r. (The communicator outlives the grid: BLACS keeps
// using it.)
int reversed_system_context() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &reversed);
  return Csys2blacs_handle(reversed);
}

GridPosition open_grid(const GridSpec& spec) {
  GridPosition g;
  Cblacs_get(0, 0, &g.context);
  switch (spec.kind) {
    case GridKind::ReversedCommunicator: {
      const int system = reversed_system_context();
      g.context = system;
      Cblacs_gridinit(&g.context, "Row", spec.nprow, spec.npcol);
      Cfree_blacs_system_handle(system);
      break;
    }
    case GridKind::RowMajor: Cblacs_gridinit(&g.context, "Row", spec.nprow, spec.npcol); break;
    case GridKind::ColumnMajor: Cblacs_gridinit(&g.context, "Col", spec.nprow, spec.npcol); break;
    case GridKind::ShuffledMap:
    case GridKind::SubsetMap: {
      std::vector<int> map = spec.ranks;
      Cblacs_gridmap(&g.context, map.data(), spec.nprow, spec.nprow, spec.npcol);
      break;
    }
  }
  if (g.context < 0) return g;
  Cblacs_gridinfo(g.context, &g.nprow, &g.npcol, &g.myrow, &g.mycol);
  if (g.nprow < 1) g.context = -1;  // not part of the grid
  return g;
}

}  // namespace hetscal_test
