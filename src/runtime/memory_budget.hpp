#pragma once
/// @file memory_budget.hpp
/// How much new memory one rank may take for a taken-over call, and whether a route's needs
/// fit in it (issue 28, item 6). ScaLAPACK users fill their memory, so a route that would
/// allocate more than a rank has must not start: the call is forwarded with the reason.
///
/// A rank's budget is HETSCAL_MEMORY (bytes per rank, its own operands included, the ranks'
/// minimum: runtime/context_state.cpp) less its operands and what hetscal already holds for
/// the context (its planned copies and message buffers, which the call reuses first); without
/// HETSCAL_MEMORY, the host's MemAvailable shared by the context's ranks on that host. What
/// a route needs is what it must newly allocate on the rank: the growth of the planned
/// copies and of the message buffers. The ranks agree (MPI_MAX of the shortfall), so every
/// rank forwards alike.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>

namespace hetscal::runtime {

/// MemAvailable of a /proc/meminfo text, in bytes, or nothing when the text has no valid
/// "MemAvailable: <n> kB" line. Pure.
std::optional<double> mem_available_bytes(const std::string& meminfo);

/// The host's available memory now: /proc/meminfo's MemAvailable, else the free physical
/// pages (sysconf), else nothing.
std::optional<double> host_available_bytes();

/// What one rank may newly allocate for a call. Pure.
/// @param memory_setting HETSCAL_MEMORY as agreed (0: unset).
/// @param host_available the host's available memory (host_available_bytes; ignored when
///        memory_setting is set; nothing: no limit known).
/// @param ranks_on_host the context's ranks on this rank's host, who share host_available.
/// @param operand_bytes this rank's local arrays of the call's operands.
/// @param held_bytes what hetscal already holds for the context (Workspace::bytes).
/// @return bytes (<= 0: nothing more fits), or nothing when no limit is known.
std::optional<double> fresh_bytes_allowed(std::int64_t memory_setting, std::optional<double> host_available,
                                          int ranks_on_host, double operand_bytes, double held_bytes);

/// Whether a route fits on every rank, agreed.
struct MemoryFit {
  bool fits = true;
  double worst_shortfall_bytes = 0.0;  ///< the most any rank lacks (> 0 when it does not fit)
  double least_allowed_bytes = 0.0;    ///< the least any rank may newly allocate (known limits)
  double most_needed_bytes = 0.0;      ///< the most any rank must newly allocate
  /// "needs up to 512.0 MiB of new memory on a rank, 96.0 MiB short where least is allowed
  /// (HETSCAL_MEMORY)". Empty when it fits.
  std::string reason;
};

/// Agrees over `comm` whether a route needing `needed_bytes` new bytes on this rank fits in
/// `allowed` (nothing: no known limit on this rank). Collective (one MPI_Allreduce).
/// @param limit_name what bounds the memory, for the reason ("HETSCAL_MEMORY", "MemAvailable").
/// @throws hetscal::Error when MPI fails; mpi::StageFailed on every rank when one cannot
///         allocate the reason (an agreed stage "price").
MemoryFit agree_memory_fit(MPI_Comm comm, double needed_bytes, std::optional<double> allowed,
                           const std::string& limit_name);

/// "512.0 MiB".
std::string mebibytes_text(double bytes);

}  // namespace hetscal::runtime
