#include "tools/slowdown/slowdown.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "core/common/error.hpp"

namespace hetscal::slowdown {
namespace {

// Debt below this is carried to the next call: a nanosleep costs ~50 µs by itself.
constexpr double kMinimumSleep = 200e-6;

struct State {
  std::vector<Phase> phases;  // this rank's factors and when they apply
  double calls = 0.0;         // outermost BLAS/LAPACK calls so far
  std::chrono::steady_clock::time_point first_call = std::chrono::steady_clock::now();
  double largest_factor = 1.0;
  double rate = 1e10;
  double debt = 0.0;          // seconds owed, not yet slept
  double slept = 0.0;         // seconds slept so far
  double charged_flops = 0.0;
  int rank = -1;
  bool report = false;
};

int rank_from_environment() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return 0;
}

double parse_positive(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0.0)
    throw InvalidArgument(what + ": '" + text + "' is not a positive number");
  return value;
}

State load_state() {
  State state;
  state.rank = rank_from_environment();
  try {
    if (const char* spec = std::getenv("HETSCAL_SLOWDOWN"))
      state.phases = phases_for_rank(spec, state.rank);
    for (const Phase& phase : state.phases) state.largest_factor = std::max(state.largest_factor, phase.factor);
    if (const char* rate = std::getenv("HETSCAL_SLOWDOWN_RATE"))
      state.rate = parse_positive(rate, "HETSCAL_SLOWDOWN_RATE");
  } catch (const Error& e) {
    // A preloaded library has no caller to return an error to; running unslowed would
    // silently falsify a benchmark, so stop here with the reason.
    // _Exit, not exit: this runs inside state's static initializer, and exit's destructors
    // (the at-exit report) would wait forever on that same initializer.
    std::fprintf(stderr, "hetscal-slowdown: %s\n", e.what());
    std::_Exit(2);
  }
  state.report = std::getenv("HETSCAL_SLOWDOWN_REPORT") != nullptr;
  return state;
}

State& state_instance() {
  static State instance = load_state();
  return instance;
}

void sleep_for(double seconds) {
  timespec remaining{static_cast<time_t>(seconds),
                     static_cast<long>((seconds - std::floor(seconds)) * 1e9)};
  while (nanosleep(&remaining, &remaining) != 0 && errno == EINTR) {
  }
}

struct ReportAtExit {
  ~ReportAtExit() {
    const State& s = state_instance();
    if (s.report && s.largest_factor > 1.0)
      std::fprintf(stderr, "hetscal-slowdown: rank %d factor up to %g: %.0f calls, %.3g flops charged, %.3f s slept\n",
                   s.rank, s.largest_factor, s.calls, s.charged_flops, s.slept);
  }
} report_at_exit;

thread_local int call_depth = 0;

}  // namespace

void charge(double flops) {
  State& s = state_instance();
  const std::chrono::duration<double> since_first = std::chrono::steady_clock::now() - s.first_call;
  const double factor = factor_at(s.phases, s.calls, since_first.count());
  s.calls += 1.0;
  if (factor <= 1.0 || flops <= 0.0) return;
  s.charged_flops += flops;
  s.debt += (factor - 1.0) * flops / s.rate;
  if (s.debt >= kMinimumSleep) {
    sleep_for(s.debt);
    s.slept += s.debt;
    s.debt = 0.0;
  }
}

double calls_so_far() { return state_instance().calls; }

double charged_seconds() {
  const State& s = state_instance();
  return s.slept + s.debt;
}

OuterCall::OuterCall() : outermost_(call_depth++ == 0) {}
OuterCall::~OuterCall() { --call_depth; }

void* next_symbol(const char* symbol) {
  void* address = dlsym(RTLD_NEXT, symbol);
  if (address == nullptr) {
    std::fprintf(stderr, "hetscal-slowdown: no definition of %s after this library (%s)\n",
                 symbol, dlerror());
    std::abort();
  }
  return address;
}

}  // namespace hetscal::slowdown

/// Seconds this process has been charged so far (slept plus still owed): lets tests and
/// benchmarks check the emulator without timing anything.
extern "C" __attribute__((visibility("default"))) double hetscal_slowdown_charged_seconds() {
  return hetscal::slowdown::charged_seconds();
}

/// Outermost BLAS/LAPACK calls this process has made so far (the clock of @calls windows):
/// lets a test find the call of its own in which a window starts.
extern "C" __attribute__((visibility("default"))) double hetscal_slowdown_calls() {
  return hetscal::slowdown::calls_so_far();
}
