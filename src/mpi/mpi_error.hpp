#pragma once
/// @file mpi_error.hpp
/// MPI return codes turned into hetscal::Error, so that library code never terminates a
/// caller's job on its own (the shim maps the error to ScaLAPACK's error path).
#include <mpi.h>

#include <string>

#include "core/common/error.hpp"

namespace hetscal::mpi {

/// @throws hetscal::Error naming `what` and MPI's error string when code != MPI_SUCCESS.
inline void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(std::string("hetscal: ") + what + " failed: " + std::string(text, length));
}

/// True while MPI may be called (initialised and not yet finalised).
inline bool mpi_usable() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

}  // namespace hetscal::mpi
