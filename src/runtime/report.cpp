#include "shim/report.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

namespace hetscal::shim {
namespace {

std::atomic<long> heterogeneous_calls{0};
std::atomic<long> forwarded_calls{0};

// Printed by every process that went through the shim: the counts are per process, and a
// test adds them up (or reads one rank's) to see how many calls hetscal computed.
void print_summary() {
  std::fprintf(stderr, "hetscal: summary: %ld PDGEMM calls computed by hetscal, %ld forwarded to ScaLAPACK\n",
               heterogeneous_calls.load(), forwarded_calls.load());
}

void arm_summary(Verbosity verbosity) {
  static std::once_flag armed;
  if (verbosity == Verbosity::Quiet) return;
  std::call_once(armed, [] { std::atexit(print_summary); });
}

}  // namespace

void report_once(Verbosity verbosity, Verbosity needed, bool context_root, const std::string& message) {
  if (!context_root || verbosity < needed) return;
  static std::mutex lock;
  static std::set<std::string> printed;
  std::lock_guard<std::mutex> guard(lock);
  if (!printed.insert(message).second) return;
  std::fprintf(stderr, "hetscal: %s\n", message.c_str());
}

void report_call(Verbosity verbosity, bool context_root, const char* routine,
                 const std::string& shape, const Decision& decision) {
  arm_summary(verbosity);
  const bool heterogeneous = decision.route == Route::Heterogeneous;
  ++(heterogeneous ? heterogeneous_calls : forwarded_calls);
  const std::string what = std::string(routine) + " " + shape +
                           (heterogeneous ? " computed by hetscal: " : " forwarded: ") +
                           decision.reason;
  if (verbosity == Verbosity::EveryCall) {
    if (context_root) std::fprintf(stderr, "hetscal: %s\n", what.c_str());
  } else {
    report_once(verbosity, Verbosity::Once, context_root, what);
  }
}

}  // namespace hetscal::shim
