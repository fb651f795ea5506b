#pragma once
/// @file scalapack_reference.hpp
/// ScaLAPACK's own routines, looked up in the library that defines NUMROC (which hetscal does
/// not interpose): the reference the random programs compare with, whether or not hetscal is
/// preloaded.

namespace hetscal_test {

/// @return ScaLAPACK's own definition of `symbol` (e.g. "pdgetrf_"); aborts when it is not
///         found (a problem of the test set-up, not of the routine under test).
void* scalapack_own_symbol(const char* symbol);

}  // namespace hetscal_test
