#include "runtime/planned_call.hpp"

#include <algorithm>

#include "mpi/agreement.hpp"

namespace hetscal::runtime {

CallMemory call_memory(ContextState& state, const MachineFigures& machine, double caller_bytes) {
  const bool set = state.settings.memory_bytes > 0;
  return {fresh_bytes_allowed(state.settings.memory_bytes, set ? std::nullopt : host_available_bytes(),
                              machine.ranks_on_host, caller_bytes,
                              static_cast<double>(state.resources.workspace.bytes())),
          set ? "HETSCAL_MEMORY" : "MemAvailable"};
}

std::string copy_route_problem(ContextState& state, const CallMemory& memory, double growth_bytes,
                               double planned_bytes, double caller_bytes) {
  // Each reason is made in an agreed stage (it allocates): a rank short of memory for it
  // sends every rank to ScaLAPACK, none waits for it (the fault sweep's in-place run hung here).
  const MPI_Comm comm = state.context->comm;
  std::string problem;
  // Under HETSCAL_TAKE_OVER=in-place the copy route is never taken (every intercepted routine
  // has an in-place route, whose prices replace these): its memory is not checked.
  if (state.settings.take_over == TakeOverMode::InPlace) {
    mpi::run_agreed(comm, "price", [&] { problem = "HETSCAL_TAKE_OVER=in-place: the copy route is not taken"; });
    return problem;
  }
  // The move in and the move out share one pair of message buffers; each holds at most what
  // leaves or reaches this rank, bounded here by the larger of its two layouts' parts.
  Workspace& workspace = state.resources.workspace;
  const double message_bytes = std::max(planned_bytes, caller_bytes);
  const double message_growth =
      std::max(0.0, message_bytes - static_cast<double>(workspace.send_buffer().capacity())) +
      std::max(0.0, message_bytes - static_cast<double>(workspace.receive_buffer().capacity()));
  const MemoryFit fit = agree_memory_fit(comm, growth_bytes + message_growth, memory.allowed, memory.limit);
  if (!fit.fits) mpi::run_agreed(comm, "price", [&] { problem = "the copy route does not fit in memory: it " + fit.reason; });
  return problem;
}

}  // namespace hetscal::runtime
