#pragma once
/// @file lost_result.hpp
/// What an intercepted call does when its result was lost while being written back (MPI
/// failed after every rank agreed to write): ScaLAPACK's error path, never a silent success.

namespace hetscal::shim {

/// Prints why on stderr and aborts every process of the context's grid (Cblacs_abort), as
/// PBLAS's PB_Cabort does after its message.
/// @param routine ScaLAPACK's name, e.g. "PDGEMM".
void abort_lost_result(int context, const char* routine);

}  // namespace hetscal::shim
