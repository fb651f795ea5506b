#pragma once
/// @file real_routine.hpp
/// The ScaLAPACK routine hetscal interposes, found after hetscal in the symbol search order
/// (dlsym(RTLD_NEXT)): what a call is forwarded to.

namespace hetscal::shim {

/// Address of the next definition of `symbol` after libhetscal (ScaLAPACK's).
/// When there is none, prints a message saying how to link or preload hetscal and aborts the
/// process: a forwarded call has nowhere else to go.
/// @param symbol the linker name, e.g. "pdgemm_".
void* real_routine(const char* symbol);

/// The real routine as a function pointer of type Fn, looked up once per call site.
template <typename Fn>
Fn real_function(const char* symbol) {
  return reinterpret_cast<Fn>(real_routine(symbol));
}

}  // namespace hetscal::shim
