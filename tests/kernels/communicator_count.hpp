#pragma once
// Communicators created and freed by this process, counted by wrapping MPI's constructors
// and MPI_Comm_free through the MPI profiling interface (communicator_count.cpp defines
// MPI_Comm_split etc. in the test executable, ahead of the MPI library, and forwards to
// PMPI_*). Lets a test see whether a kernel builds communicators and whether it frees them.

namespace hetscal::kernels::test {

struct CommunicatorCount {
  long created = 0;  ///< new communicators handed out (MPI_COMM_NULL results not counted)
  long freed = 0;    ///< MPI_Comm_free calls
};

CommunicatorCount communicator_count();

}  // namespace hetscal::kernels::test
