#pragma once
/// @file kept_balanced.hpp
/// The start of every native call on hetscal descriptors (hetero_p?gemm, hetero_p?getrf,
/// hetero_p?geqrf, hetero_p?potrf), once its arguments are checked: the speed adaptation step
/// the shim's calls take (runtime::adapt_speeds_or_report on the state of the context's BLACS
/// grid: observe, one MPI_Allgather, estimates), so that a program using only the native API
/// learns speeds too; then, for a context that keeps its matrices balanced
/// (hetscal_context_keep_balanced), their automatic rebalancing when the estimates call for it.
///
/// The rebalancing is due when the context's layout, planned for context.speeds, would take at
/// least (1 + the tracker's re-planning threshold, 10 %) of the balanced time under the speeds
/// the estimates plan with (core::replanning_gain; estimates within the noise band planned as
/// uniform, as the shim plans), once the estimates rest on an observation (not on the grid's
/// first adapted call, which starts them from the probe). The context's own speeds are the
/// reference, not the shim's last plan: a context created for given speeds, or one whose
/// rebalancing was once refused, is caught up as soon as it can be. It is done when every operand
/// of the call is a registered matrix (array and descriptor the ones registered, on every process),
/// with api::rebalance_context, the path of hetscal_context_rebalance; the call then computes on
/// the new layout, reading the descriptors it was given, which the rebalancing updated. When
/// it cannot be done the call computes on the layout it has; HETSCAL_VERBOSE=1 says why, once
/// per reason (every time at 2), and each rebalancing with its volumes:
///   hetscal: context 1 rebalanced automatically for speeds 9.9e+07, 3.3e+07 (the old layout
///   took x1.50 the balanced time): moved 10240 of 76800 elements (2 column and 0 row
///   migrations); a fresh plan would move 38400, a full redistribution 76800
#include <initializer_list>
#include <type_traits>

#include "api/context_registry.hpp"

namespace hetscal::api {

/// An operand of a native call, as the call received it.
struct CallOperand {
  const void* array = nullptr;
  const int* desc = nullptr;
  /// Only double matrices are registered (hetscal_context_keep_balanced moves doubles), so
  /// a call of another precision never rebalances.
  bool holds_doubles = false;
};

/// The operand `array` of element type T described by `desc`.
template <typename T>
CallOperand call_operand(const T* array, const int* desc) {
  return {array, desc, std::is_same<T, double>::value};
}

/// The adaptation step and, when due and possible, the automatic rebalancing (file comment).
/// Collective over the context's processes; call it after the argument checks agreed, before
/// the call reads its operands' layout. Refusals are reported, never thrown.
/// @param call_flops the call's work, which bounds a short probe (runtime::adapt_speeds).
/// @throws on an MPI failure while the matrices move (the call must not compute then).
void start_native_call(Context& context, double call_flops,
                       std::initializer_list<CallOperand> operands);

}  // namespace hetscal::api
