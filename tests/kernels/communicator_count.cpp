// The profiling-interface wrappers behind communicator_count.hpp. The tests call MPI from
// one thread per process, so a plain counter suffices.
#include "communicator_count.hpp"

#include <mpi.h>

namespace hetscal::kernels::test {
namespace {

CommunicatorCount g_count;

}  // namespace

CommunicatorCount communicator_count() { return g_count; }

/// Passes an MPI constructor's result through, counting the communicator it made.
int count_created(int code, const MPI_Comm* made) {
  if (code == MPI_SUCCESS && *made != MPI_COMM_NULL) ++g_count.created;
  return code;
}

void count_freed() { ++g_count.freed; }

}  // namespace hetscal::kernels::test

using hetscal::kernels::test::count_created;

extern "C" {

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return count_created(PMPI_Comm_split(comm, color, key, newcomm), newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return count_created(PMPI_Comm_create(comm, group, newcomm), newcomm);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  return count_created(PMPI_Comm_create_group(comm, group, tag, newcomm), newcomm);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return count_created(PMPI_Comm_dup(comm, newcomm), newcomm);
}

int MPI_Comm_free(MPI_Comm* comm) {
  hetscal::kernels::test::count_freed();
  return PMPI_Comm_free(comm);
}

}  // extern "C"
