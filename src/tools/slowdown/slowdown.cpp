#include "tools/slowdown/slowdown.hpp"

#include <dlfcn.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>

#include "core/error.hpp"

namespace hetscal::slowdown {
namespace {

// Debt below this is carried to the next call: a nanosleep costs ~50 µs by itself.
constexpr double kMinimumSleep = 200e-6;

struct State {
  double factor = 1.0;
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
      state.factor = factor_for_rank(spec, state.rank);
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
    if (s.report && s.factor > 1.0)
      std::fprintf(stderr, "hetscal-slowdown: rank %d factor %g: %.3g flops charged, %.3f s slept\n",
                   s.rank, s.factor, s.charged_flops, s.slept);
  }
} report_at_exit;

thread_local int call_depth = 0;

}  // namespace

double factor_for_rank(const std::string& spec, int rank) {
  std::stringstream entries(spec);
  for (std::string entry; std::getline(entries, entry, ',');) {
    const auto colon = entry.find(':');
    if (colon == std::string::npos)
      throw InvalidArgument("HETSCAL_SLOWDOWN: entry '" + entry + "' is not rank:factor");
    char* end = nullptr;
    const long listed = std::strtol(entry.c_str(), &end, 10);
    if (end != entry.c_str() + colon || listed < 0)
      throw InvalidArgument("HETSCAL_SLOWDOWN: bad rank in '" + entry + "'");
    const double factor = parse_positive(entry.substr(colon + 1), "HETSCAL_SLOWDOWN factor");
    if (factor < 1.0)
      throw InvalidArgument("HETSCAL_SLOWDOWN: factor in '" + entry + "' is below 1 (only slowing is possible)");
    if (listed == rank) return factor;
  }
  return 1.0;
}

void charge(double flops) {
  State& s = state_instance();
  if (s.factor <= 1.0 || flops <= 0.0) return;
  s.charged_flops += flops;
  s.debt += (s.factor - 1.0) * flops / s.rate;
  if (s.debt >= kMinimumSleep) {
    sleep_for(s.debt);
    s.slept += s.debt;
    s.debt = 0.0;
  }
}

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
