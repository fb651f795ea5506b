#pragma once
/// @file in_place_factorization.hpp
/// What the in-place routes of PxPOTRF and PxGETRF (in_place_potrf.hpp, in_place_getrf.hpp)
/// share: the call, and its operand sub(A) in the in-place layout (in_place_operand.hpp: the
/// caller's tiles and grid kept, only the surplus moved), with what the route choice reads of
/// it. Each route adds what it allocates and its steps.
#include <cstdint>
#include <string>
#include <vector>

#include "core/time_models/time_model.hpp"
#include "layout/in_place_storage.hpp"
#include "mpi/blacs_context.hpp"
#include "runtime/in_place_operand.hpp"

namespace hetscal::runtime {

/// @tparam Call the routine's call (PotrfCall<T>, GetrfCall<T>), whose sub(A) is `a`.
template <typename T, typename Call>
class InPlaceFactorization {
 public:
  /// "" or why the in-place route cannot compute the call (the same on every rank).
  const std::string& problem() const { return a_.problem(); }
  /// sub(A)'s elements per rank, for pricing the surplus's moves. Global. @pre problem() is empty.
  SurplusElements surplus() const { return a_.surplus(context_.num_ranks()); }
  /// The in-place layout as the time model's candidate. Global. @pre problem() is empty.
  core::Candidate candidate() const { return a_.candidate(); }

 protected:
  /// Local (no communication): the caller's view, the in-place layout, this rank's storage.
  /// @param rows,cols sub(A)'s size; @param stored the tiles of sub(A) the routine touches.
  /// @param speeds the context's agreed relative speeds, one per rank of context.comm.
  InPlaceFactorization(const mpi::ContextInfo& context, const Call& call, std::int64_t rows,
                       std::int64_t cols, const std::vector<double>& speeds, layout::StoredTiles stored)
      : context_(context), call_(call), a_(context, call.a, rows, cols, speeds, stored) {}

  const mpi::ContextInfo& context_;
  const Call& call_;
  InPlaceOperand<T> a_;
};

}  // namespace hetscal::runtime
