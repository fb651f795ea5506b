#pragma once
/// @file agreement.hpp
/// How the ranks of a communicator stay on one route. A taken-over call is a sequence of
/// stages; each stage does its local part (planning, allocation, packing: what can fail on
/// one rank) and then every rank learns, in one collective, whether every rank succeeded.
/// Only then does the stage's communication start, so a rank that failed never leaves the
/// others waiting in a collective, and all ranks take the same route afterwards.
///
/// INFO values are combined here too, with ScaLAPACK's rules: the earliest argument error
/// (PCHK1MAT's encoding) and the smallest positive INFO (the first zero pivot or
/// non-positive minor).
#include <mpi.h>

#include <cstddef>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::mpi {

/// Thrown on every rank of a communicator when some rank failed a stage's local part. Its
/// message lives in the exception itself, so that building it allocates nothing: a rank
/// short of memory throws the same StageFailed as the others, and takes the same route.
class StageFailed : public Error {
 public:
  /// The longest message kept (longer ones are cut).
  static constexpr std::size_t kMaxMessage = 1023;

  /// @param stage, detail the message is "<stage> failed on rank <failed_rank>: <detail>",
  ///   or `detail` alone when it already starts with "<stage> failed on rank ".
  StageFailed(int failed_rank, const char* stage, const char* detail) noexcept;
  /// The lowest rank (of the stage's communicator) that failed.
  int failed_rank() const { return failed_rank_; }
  const char* what() const noexcept override { return message_; }

 private:
  int failed_rank_;
  char message_[kMaxMessage + 1];
};

/// Collective over `comm`: every rank passes the outcome of its local part ("" = success).
/// Returns on every rank when all succeeded; otherwise throws StageFailed on every rank with
/// the message of the lowest failing rank ("<stage> failed on rank r: <its message>"),
/// counting a rank whose failure only echoes another's (`echo`: EchoedFailure) after every
/// rank that failed first-hand.
/// Allocates nothing, so that it ends alike on every rank however short of memory.
void agree_on_stage(MPI_Comm comm, const char* stage, const std::string& local_failure, bool echo = false);
/// The same with the local outcome as a C string (nullptr or "" = success).
void agree_on_stage(MPI_Comm comm, const char* stage, const char* local_failure, bool echo = false);

/// Runs `local_part` (which must not communicate over `comm`), catching what it throws, then
/// agree_on_stage. Nothing here allocates (a template, not a std::function; the failure's
/// text stays in the exception caught by reference), so it ends alike on every rank.
/// @throws StageFailed on every rank when any rank's local part threw.
template <typename LocalPart>
void run_agreed(MPI_Comm comm, const char* stage, LocalPart&& local_part) {
  try {
    local_part();
  } catch (const std::exception& e) {
    const char* what = e.what();
    const bool echo = dynamic_cast<const EchoedFailure*>(&e) != nullptr;
    agree_on_stage(comm, stage, what && *what ? what : "unknown error", echo);
    return;
  } catch (...) {
    agree_on_stage(comm, stage, "unknown error");
    return;
  }
  agree_on_stage(comm, stage, "");
}

/// Whether `mine` holds on every rank of `comm` (one MPI_Allreduce with LAND). Collective.
bool on_every_rank(MPI_Comm comm, bool mine);

/// The earliest argument error any rank found: ScaLAPACK's encoding (PCHK1MAT), where a
/// scalar argument at position p ranks as p·100 and field f of the descriptor at position p
/// as p·100 + f, reduced with MIN. Collective. @param local_info 0 or a negative INFO.
int earliest_argument_info(MPI_Comm comm, int local_info);

/// Encoding used by earliest_argument_info (exposed for callers that reduce it themselves).
int argument_info_key(int info);  ///< 0 → no error (sorts last)
int argument_info_of_key(int key);

/// The smallest positive INFO over the ranks (0 when every rank has 0): the first failing
/// pivot or minor, in global numbering. Collective. @param local_info >= 0.
int smallest_positive_info(MPI_Comm comm, int local_info);

}  // namespace hetscal::mpi
