#pragma once
/// @file random_driver.hpp
/// The main loop every random case program shares: options, every BLACS grid of the
/// process count open at once with the cases dealt round-robin over them (calls on
/// different contexts interleave), in two rounds (the second reopens grids on the context
/// handles BLACS just freed), failure reports with a reproducer, and the verdict lines
///   "hetscal-random: <n> calls hetscal may compute ..." and
///   "hetscal-random: <p> passed, <f> failed"
/// that the CMake tests and check_computed.sh read.
#include <cstdint>
#include <functional>
#include <string>

#include "blacs_grids.hpp"
#include "precision.hpp"

namespace hetscal_test {

/// One routine's random cases.
struct RandomProgram {
  const char* name = "";             ///< program name, for the reproducer line
  const char* computable_rule = "";  ///< what "hetscal may compute" means, for the verdict
  int default_max_dimension = 40;
  /// Whether hetscal may compute case `seed` on grid `spec` (asked on every process).
  std::function<bool(std::uint64_t seed, const GridSpec& spec, int max_dimension)> may_compute;
  /// Runs case `seed` on this process of the grid (every process of the grid calls it for
  /// the same case) and checks this process's part.
  /// @return "" when this process found nothing wrong, else the case and what was wrong.
  std::function<std::string(std::uint64_t seed, const GridSpec& spec, const GridPosition& grid,
                            int max_dimension)>
      run_and_check;
};

/// The program of a factorization's cases. Case: a type with computable(processes) and
/// describe(), drawn by `draw(seed, nprow, npcol, max_dimension)`; `check` runs one case on
/// this process and returns its Findings: failed(), counts(case) (one line of what was wrong)
/// and first_problem.
template <typename Case, typename Findings>
RandomProgram factorization_program(const char* name, const char* computable_rule,
                                    Case (*draw)(std::uint64_t, int, int, int),
                                    Findings (*check)(const Case&, const GridPosition&)) {
  RandomProgram program;
  program.name = name;
  program.computable_rule = computable_rule;
  program.default_max_dimension = 48;
  program.may_compute = [draw](std::uint64_t seed, const GridSpec& spec, int max_dimension) {
    return draw(seed, spec.nprow, spec.npcol, max_dimension).computable(spec.nprow * spec.npcol);
  };
  program.run_and_check = [draw, check](std::uint64_t seed, const GridSpec& spec,
                                        const GridPosition& grid, int max_dimension) {
    const Case t = draw(seed, spec.nprow, spec.npcol, max_dimension);
    const Findings f = check(t, grid);
    if (!f.failed()) return std::string();
    return t.describe() + "\nhetscal-random:   " + f.counts(t) + "; first: " + f.first_problem;
  };
  return program;
}

/// main() of a random case program: MPI_Init, run_random_program, MPI_Finalize.
int random_program_main(int argc, char** argv, const RandomProgram& program);

/// main() of a factorization's random program built for precision `letter` ('s', 'd', 'c' or
/// 'z'), named p<letter><routine>_random: factorization_program's arguments otherwise.
template <typename Case, typename Findings>
int factorization_program_main(int argc, char** argv, char letter, const char* routine,
                               const char* computable_rule,
                               Case (*draw)(std::uint64_t, int, int, int),
                               Findings (*check)(const Case&, const GridPosition&)) {
  const std::string name = random_program_name(letter, routine);
  return random_program_main(argc, argv,
                             factorization_program(name.c_str(), computable_rule, draw, check));
}

/// Runs the program's cases on every grid (MPI must be initialised).
/// usage: <program> [--cases-per-grid N] [--seed S] [--max-dimension D] [--grid G] [--case C]
///   --grid/--case run one grid / one case only: the reproducer a failure report prints.
/// @return the exit status: 0 when every case passed on every process
int run_random_program(int argc, char** argv, const RandomProgram& program);

}  // namespace hetscal_test
