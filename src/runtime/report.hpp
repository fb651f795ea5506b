#pragma once
/// @file report.hpp
/// What HETSCAL_VERBOSE prints: each plan, predicted gain and forward reason once per process
/// (on rank 0 of the call's context), every call at level 2, the measured time of each
/// computed call, and at exit one summary line per routine seen:
///   hetscal: summary: PDGEMM 12 computed, 3 forwarded
/// (per process: a test adds them up, or reads one rank's). Configuration problems are
/// printed at every level, once.
#include <string>

#include "runtime/config.hpp"

namespace hetscal::runtime {

/// Prints `message` (prefixed "hetscal: ") on stderr once per process, if this process is
/// rank 0 of its context and `verbosity` reaches `needed`.
void report_once(Verbosity verbosity, Verbosity needed, bool context_root, const std::string& message);

/// Prints `message` (prefixed "hetscal: ") on rank 0 of the context at `verbosity` >= needed,
/// every time.
void report_always(Verbosity verbosity, Verbosity needed, bool context_root, const std::string& message);

/// Prints `message` once per distinct `key` at Verbosity::Once (e.g. the measured time of
/// the first computed call of each shape) and every time at Verbosity::EveryCall.
void report_once_per_key(Verbosity verbosity, bool context_root, const std::string& key,
                         const std::string& message);

/// Records a call's route for the exit summary of `routine` and prints `what` (once per
/// distinct text at Verbosity::Once, every time at Verbosity::EveryCall).
/// @param routine ScaLAPACK's name, e.g. "PDGEMM".
void report_call(Verbosity verbosity, bool context_root, const std::string& routine,
                 bool computed, const std::string& what);

/// The summary lines the exit handler prints (one per routine, in name order).
std::string summary_text();

}  // namespace hetscal::runtime
