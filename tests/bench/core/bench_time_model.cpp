// Prints the time model's candidates and predicted times for the 9 workstations of Boudet,
// Petitet, Rastello & Robert 1999 (Table 3; cycle-time 1 = 100 Mflop/s) on a 100 Mb/s shared
// Ethernet, GEMM and LU at N = 2,000 and 8,000 (the caller holding the data block-cyclically
// on a 3x3 grid with 64x64 blocks), then how far the optimum of Rauber & Rünger's full LU
// formula moves from sqrt(p).
//
// Usage: bench_time_model [--all]   (--all: every tile size of every layout, not just the best)
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "core/planners/model_candidates.hpp"
#include "core/planners/model_report.hpp"
#include "core/time_models/model_rauber_runger.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace {

using namespace hetscal::core;

void print_nine_workstations(TileListing listing) {
  const Platform platform = nine_workstations_platform();
  std::printf("%s\n\n", describe_platform(platform).c_str());
  for (Routine routine : {Routine::Gemm, Routine::LU}) {
    for (std::size_t n : {2000u, 8000u}) {
      Problem problem{routine, n, CallerLayout{3, 3, 64, {}}};
      const auto predictions =
          predict_candidates(platform, problem, generate_candidates(platform, problem));
      ReportOptions options;
      options.listing = listing;
      options.max_rows = listing == TileListing::EveryCandidate ? 0 : 25;
      std::printf("%s\n", format_predictions(problem, predictions, options).c_str());
    }
  }
}

void print_rauber_runger_optimum(const rauber_runger::MachineParameters& machine) {
  namespace rr = rauber_runger;
  std::printf("Rauber-Ruenger LU (t_op = %g, t_c = %g, tau = %g): optimum m0 of T3 (m1 = p/m0)\n",
              machine.t_op, machine.t_c, machine.tau);
  std::printf("%6s %6s %8s %12s %12s %10s %14s %14s\n", "p", "n", "sqrt(p)", "T_S argmin",
              "T3 argmin", "moved by", "best m0xm1", "T3(best)/T3(~sqrt)");
  for (std::size_t p : {16u, 32u, 36u, 48u, 64u, 1024u}) {
    for (std::size_t n : {256u, 1024u, 4096u}) {
      const double root = std::sqrt(static_cast<double>(p));
      const double symmetric = rr::symmetric_part_minimiser(machine, static_cast<double>(n),
                                                            static_cast<double>(p));
      const double full = rr::full_formula_minimiser(machine, static_cast<double>(n),
                                                     static_cast<double>(p));
      // Integer optimum over b = 1 (Lemma 12) and every m0 | p.
      std::size_t best_m0 = 1, near_root = 1;
      double best_t = 0.0;
      for (std::size_t m0 = 1; m0 <= p; ++m0) {
        if (p % m0 != 0 || m0 > n || p / m0 > n) continue;
        const double t = rr::lu_time_closed_form(machine, n, rr::Distribution{m0, 1, p / m0, 1});
        if (best_t == 0.0 || t < best_t) { best_t = t; best_m0 = m0; }
        if (std::fabs(std::log(static_cast<double>(m0) / root)) <
            std::fabs(std::log(static_cast<double>(near_root) / root)))
          near_root = m0;
      }
      const double t_root =
          rr::lu_time_closed_form(machine, n, rr::Distribution{near_root, 1, p / near_root, 1});
      char best[32];
      std::snprintf(best, sizeof best, "%zux%zu", best_m0, p / best_m0);
      std::printf("%6zu %6zu %8.2f %12.3f %12.3f %9.3fx %14s %14.5f\n", p, n, root, symmetric,
                  full, full / root, best, best_t / t_root);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool all = argc > 1 && std::strcmp(argv[1], "--all") == 0;
  print_nine_workstations(all ? TileListing::EveryCandidate : TileListing::BestTilePerLayout);
  // Illustrative iPSC/860-like parameters (microseconds): t_op, t_c per element, tau.
  print_rauber_runger_optimum({0.1, 2.9, 136.0});
  // A network much faster than the processors: T_A's n(n-1)/2·t_op/m0 (the l_im computed by
  // one column group) is no longer small next to T_S, and the optimum moves to ~1.22·sqrt(p).
  std::printf("\n");
  print_rauber_runger_optimum({1.0, 0.01, 1.0});
  return 0;
}
