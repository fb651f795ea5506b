#pragma once
/// @file prepared_factorization.hpp
/// What a factorisation prepared for a take-over (PreparedQr, PreparedCholesky) holds between
/// its constructor and its run: the per-rank object that carries the whole workspace, made
/// after the argument check and in an agreed allocation (both agreed, nothing written), and
/// the kernel's own communicator. A take-over must have every allocation agreed before its
/// first write into the caller's arrays (runtime/in_place_sequence.hpp), so the kernel's are
/// made here, before the run.
#include <mpi.h>

#include <memory>

#include "kernels/agreed_call.hpp"
#include "kernels/allocate_agreed.hpp"

namespace hetscal::kernels::detail {

template <typename Factorization>
class PreparedFactorization {
 public:
  /// Collective over `comm`.
  /// @param check_stage the agreement's name for the argument check.
  /// @param check returns this rank's rank in `comm`; @throws InvalidArgument (then thrown
  ///        on every rank, before any other message).
  /// @param make `std::unique_ptr<Factorization>(int my_rank)`: the whole workspace, without
  ///        communicating.
  /// @throws mpi::StageFailed on every rank when some rank's allocation failed.
  template <typename Check, typename Make>
  PreparedFactorization(MPI_Comm comm, const char* check_stage, Check&& check, Make&& make)
      : factorization_(allocate(comm, check_stage, check, make)), messages_(comm) {}

  Factorization& factorization() { return *factorization_; }
  /// The kernel's communicator for its messages (a duplicate of the constructor's).
  MPI_Comm messages() const { return messages_.get(); }

 private:
  template <typename Check, typename Make>
  static std::unique_ptr<Factorization> allocate(MPI_Comm comm, const char* check_stage,
                                                 Check& check, Make& make) {
    const int my_rank = agreed_arguments(comm, check_stage, check);
    std::unique_ptr<Factorization> factorization;
    allocate_agreed(comm, [&] { factorization = make(my_rank); });
    return factorization;
  }

  std::unique_ptr<Factorization> factorization_;
  const DuplicatedComm messages_;
};

}  // namespace hetscal::kernels::detail
