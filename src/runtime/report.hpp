#pragma once
/// @file report.hpp
/// What HETSCAL_VERBOSE prints: each plan, predicted gain and forward reason once per process
/// (on rank 0 of the call's context), every call at level 2, and a per-process count of the
/// calls at exit. Configuration problems are printed at every level, once.
#include <string>

#include "runtime/config.hpp"
#include "shim/decision.hpp"

namespace hetscal::shim {

using runtime::Verbosity;

/// Prints `message` (prefixed "hetscal: ") on stderr once per process, if this process is
/// rank 0 of its context and `verbosity` reaches `needed`.
void report_once(Verbosity verbosity, Verbosity needed, bool context_root, const std::string& message);

/// Records a call's route for the exit summary, and prints it at Verbosity::EveryCall.
/// @param routine "PDGEMM".
/// @param shape e.g. "1000x1000x1000".
void report_call(Verbosity verbosity, bool context_root, const char* routine,
                 const std::string& shape, const Decision& decision);

}  // namespace hetscal::shim
