// A plain ScaLAPACK program (it links ScaLAPACK and knows nothing of hetscal) that runs
// thousands of random PDGEMM cases — shapes 0..40, N/T/C, submatrices off block boundaries,
// both descriptor types, RSRC/CSRC != 0, padded LLD, alpha/beta including 0 (beta = 0 with
// NaN in C) and K = 0 — on every BLACS grid of the process count, and checks each process's
// part against a plain-loop product of the operands' formulas, and that nothing outside
// sub(C) changed. Run with libhetscal.so preloaded (CMakeLists.txt here).
//
// usage: pdgemm_random [--cases-per-grid N] [--seed S] [--max-dimension D] [--grid G] [--case C]
//   --grid/--case run one grid / one case only: the reproducer a failure report prints.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "blacs_grids.hpp"
#include "gemm_check.hpp"
#include "scalapack_abi.hpp"

namespace {

using namespace hetscal_test;

struct Options {
  int cases_per_grid = 60;
  int max_dimension = 40;
  std::uint64_t seed = 20261121;
  int only_grid = -1, only_case = -1;
};

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const char* value = argv[i + 1];
    if (!std::strcmp(argv[i], "--cases-per-grid")) {
      o.cases_per_grid = std::atoi(value);
    } else if (!std::strcmp(argv[i], "--max-dimension")) {
      o.max_dimension = std::atoi(value);
    } else if (!std::strcmp(argv[i], "--seed")) {
      o.seed = std::strtoull(value, nullptr, 10);
    } else if (!std::strcmp(argv[i], "--grid")) {
      o.only_grid = std::atoi(value);
    } else if (!std::strcmp(argv[i], "--case")) {
      o.only_case = std::atoi(value);
    } else {
      std::fprintf(stderr, "pdgemm_random: unknown option %s\n", argv[i]);
      std::exit(2);
    }
  }
  return o;
}

std::uint64_t case_seed(const Options& o, int grid, int index) {
  return mix(mix(o.seed, static_cast<std::uint64_t>(grid)), static_cast<std::uint64_t>(index));
}

void report_failure(int world_rank, int world_size, const Options& o, int grid_index,
                    const GridSpec& spec, int index, const GemmCase& t, const CaseFindings& f) {
  std::printf("hetscal-random: FAILED on rank %d: grid %d (%s) case %d: %s\n"
              "hetscal-random:   %ld wrong in sub(C), %ld changed outside sub(C), A %ld, B %ld "
              "changed; first: %s\n"
              "hetscal-random:   reproduce: mpirun -np %d pdgemm_random --seed %llu --max-dimension %d "
              "--grid %d --case %d (same LD_PRELOAD and HETSCAL_* settings)\n",
              world_rank, grid_index, spec.describe().c_str(), index, t.describe().c_str(),
              f.wrong_in_sub_c, f.changed_outside, f.changed_a, f.changed_b, f.first_problem.c_str(),
              world_size, static_cast<unsigned long long>(o.seed), o.max_dimension, grid_index, index);
  std::fflush(stdout);
}

// Which grids and cases a run covers, and what it found (failed[g][c], this process's view).
struct Run {
  Options options;
  int world_rank = 0, world_size = 1;
  std::vector<GridSpec> grids;
  std::vector<int> grid_indices;  // the grids run (all, or --grid)
  int first_case = 0, cases = 0;  // the cases run on each grid (all, or --case)
  std::vector<std::vector<int>> failed;
  long computable = 0;
};

// One round: every grid open at once, the cases dealt round-robin over the grids (so calls
// on different contexts interleave), then every grid closed. A second round reopens the grids,
// which BLACS gives the context handles just freed: hetscal's per-context state must have
// died with them.
void run_round(Run& run, int first, int count) {
  std::vector<GridPosition> open;
  for (int g : run.grid_indices) open.push_back(open_grid(run.grids[g]));
  for (int c = first; c < first + count; ++c) {
    for (std::size_t i = 0; i < run.grid_indices.size(); ++i) {
      const int g = run.grid_indices[i];
      const GridSpec& spec = run.grids[g];
      const GemmCase t = draw_case(case_seed(run.options, g, c), spec.nprow, spec.npcol,
                                   run.options.max_dimension);
      if (t.computable() && spec.nprow * spec.npcol > 1) ++run.computable;
      if (open[i].context < 0) continue;
      const CaseFindings f = run_and_check(t, open[i]);
      if (f.failed()) {
        run.failed[i][c - run.first_case] = 1;
        report_failure(run.world_rank, run.world_size, run.options, g, spec, c, t, f);
      }
    }
  }
  for (const GridPosition& grid : open) {
    if (grid.context >= 0) Cblacs_gridexit(grid.context);
  }
}

// Adds up the findings of every process. @return the number of failed cases.
long summarise(Run& run) {
  long total_failed = 0;
  for (std::size_t i = 0; i < run.grid_indices.size(); ++i) {
    std::vector<int>& failed = run.failed[i];
    MPI_Allreduce(MPI_IN_PLACE, failed.data(), run.cases, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    long grid_failed = 0;
    for (int x : failed) grid_failed += x;
    total_failed += grid_failed;
    if (run.world_rank == 0) {
      std::printf("hetscal-random: grid %d (%s): %d cases, %ld failed\n", run.grid_indices[i],
                  run.grids[run.grid_indices[i]].describe().c_str(), run.cases, grid_failed);
    }
  }
  return total_failed;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Run run;
  run.options = parse_options(argc, argv);
  Cblacs_pinfo(&run.world_rank, &run.world_size);
  run.grids = grids_for(run.world_size, run.options.seed);
  for (int g = 0; g < static_cast<int>(run.grids.size()); ++g) {
    if (run.options.only_grid < 0 || g == run.options.only_grid) run.grid_indices.push_back(g);
  }
  const bool one_case = run.options.only_case >= 0;
  run.first_case = one_case ? run.options.only_case : 0;
  run.cases = one_case ? 1 : run.options.cases_per_grid;
  run.failed.assign(run.grid_indices.size(), std::vector<int>(static_cast<std::size_t>(run.cases), 0));
  const int first_round = one_case ? 1 : run.cases / 2;
  run_round(run, run.first_case, first_round);
  run_round(run, run.first_case + first_round, run.cases - first_round);
  const long failed = summarise(run);
  if (run.world_rank == 0) {
    const long total = static_cast<long>(run.cases) * static_cast<long>(run.grid_indices.size());
    std::printf("hetscal-random: %ld calls hetscal may compute (M, N, K >= 1, alpha != 0, >= 2 processes)\n",
                run.computable);
    std::printf("hetscal-random: %ld passed, %ld failed\n", total - failed, failed);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return failed ? 1 : 0;
}
