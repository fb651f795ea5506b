#include "random_driver.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "scalapack_abi.hpp"

namespace hetscal_test {
namespace {

struct Options {
  int cases_per_grid = 60;
  int max_dimension = 40;
  std::uint64_t seed = 20261121;
  int only_grid = -1, only_case = -1;
};

Options parse_options(int argc, char** argv, const RandomProgram& program) {
  Options o;
  o.max_dimension = program.default_max_dimension;
  for (int i = 1; i < argc; i += 2) {
    const char* value = i + 1 < argc ? argv[i + 1] : "";
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
      std::fprintf(stderr, "%s: unknown option %s\n", program.name, argv[i]);
      std::exit(2);
    }
  }
  return o;
}

std::uint64_t case_seed(const Options& o, int grid, int index) {
  return mix(mix(o.seed, static_cast<std::uint64_t>(grid)), static_cast<std::uint64_t>(index));
}

// Which grids and cases a run covers, and what it found (failed[g][c], this process's view).
struct Run {
  const RandomProgram* program = nullptr;
  Options options;
  int world_rank = 0, world_size = 1;
  std::vector<GridSpec> grids;
  std::vector<int> grid_indices;  // the grids run (all, or --grid)
  int first_case = 0, cases = 0;  // the cases run on each grid (all, or --case)
  std::vector<std::vector<int>> failed;
  long computable = 0;
};

void report_failure(const Run& run, int grid_index, int index, const std::string& findings) {
  std::printf(
      "hetscal-random: FAILED on rank %d: grid %d (%s) case %d: %s\n"
      "hetscal-random:   reproduce: mpirun -np %d %s --seed %llu --max-dimension %d "
      "--grid %d --case %d (same LD_PRELOAD and HETSCAL_* settings)\n",
      run.world_rank, grid_index, run.grids[grid_index].describe().c_str(), index, findings.c_str(),
      run.world_size, run.program->name, static_cast<unsigned long long>(run.options.seed),
      run.options.max_dimension, grid_index, index);
  std::fflush(stdout);
}

// One round: every grid open at once, the cases dealt round-robin over the grids, then
// every grid closed.
void run_round(Run& run, int first, int count) {
  std::vector<GridPosition> open;
  for (int g : run.grid_indices) open.push_back(open_grid(run.grids[g]));
  for (int c = first; c < first + count; ++c) {
    for (std::size_t i = 0; i < run.grid_indices.size(); ++i) {
      const int g = run.grid_indices[i];
      const GridSpec& spec = run.grids[g];
      const std::uint64_t seed = case_seed(run.options, g, c);
      if (spec.nprow * spec.npcol > 1 &&
          run.program->may_compute(seed, spec, run.options.max_dimension)) {
        ++run.computable;
      }
      if (open[i].context < 0) continue;
      const std::string findings =
          run.program->run_and_check(seed, spec, open[i], run.options.max_dimension);
      if (!findings.empty()) {
        run.failed[i][c - run.first_case] = 1;
        report_failure(run, g, c, findings);
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

int run_random_program(int argc, char** argv, const RandomProgram& program) {
  Run run;
  run.program = &program;
  run.options = parse_options(argc, argv, program);
  Cblacs_pinfo(&run.world_rank, &run.world_size);
  run.grids = grids_for(run.world_size, run.options.seed);
  for (int g = 0; g < static_cast<int>(run.grids.size()); ++g) {
    if (run.options.only_grid < 0 || g == run.options.only_grid) run.grid_indices.push_back(g);
  }
  const bool one_case = run.options.only_case >= 0;
  run.first_case = one_case ? run.options.only_case : 0;
  run.cases = one_case ? 1 : run.options.cases_per_grid;
  run.failed.assign(run.grid_indices.size(),
                    std::vector<int>(static_cast<std::size_t>(run.cases), 0));
  const int first_round = one_case ? 1 : run.cases / 2;
  run_round(run, run.first_case, first_round);
  run_round(run, run.first_case + first_round, run.cases - first_round);
  const long failed = summarise(run);
  if (run.world_rank == 0) {
    const long total = static_cast<long>(run.cases) * static_cast<long>(run.grid_indices.size());
    std::printf("hetscal-random: %ld calls hetscal may compute (%s, >= 2 processes)\n",
                run.computable, program.computable_rule);
    std::printf("hetscal-random: %ld passed, %ld failed\n", total - failed, failed);
    std::fflush(stdout);
  }
  return failed ? 1 : 0;
}

int random_program_main(int argc, char** argv, const RandomProgram& program) {
  MPI_Init(&argc, &argv);
  const int status = run_random_program(argc, argv, program);
  MPI_Finalize();
  return status;
}

}  // namespace hetscal_test
