#include "mpi/blacs_context.hpp"

#include <atomic>
#include <memory>
#include <string>

#include "core/common/error.hpp"
#include "mpi/blacs.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::mpi {
namespace {

std::atomic<std::size_t> live_contexts{0};

// Runs when BLACS frees the context's communicator (Cblacs_gridexit): the cached entry and
// hetscal's duplicate communicator go with it.
int delete_context_info(MPI_Comm /*blacs_comm*/, int /*keyval*/, void* attribute, void* /*extra*/) {
  std::unique_ptr<ContextInfo> info(static_cast<ContextInfo*>(attribute));
  // A failed free only leaks hetscal's duplicate: nothing to report from a delete callback.
  if (info->comm != MPI_COMM_NULL && mpi_usable()) (void)MPI_Comm_free(&info->comm);
  --live_contexts;
  return MPI_SUCCESS;
}

int context_keyval() {
  static const int keyval = [] {
    int created = MPI_KEYVAL_INVALID;
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_context_info, &created, nullptr),
              "MPI_Comm_create_keyval");
    return created;
  }();
  return keyval;
}

MPI_Comm blacs_communicator(int blacs_context) {
  int system_handle = -1;
  Cblacs_get(blacs_context, blacs::kGetContextCommunicator, &system_handle);
  MPI_Comm comm = Cblacs2sys_handle(system_handle);
  if (comm == MPI_COMM_NULL) {
    throw Error("hetscal: BLACS context " + std::to_string(blacs_context) + " has no communicator");
  }
  return comm;
}

// The rank table from Cblacs_pnum, checked against where each rank of the duplicate says it
// sits: hetscal's messages go over the duplicate, so the two must agree.
void fill_rank_table(int blacs_context, ContextInfo& info) {
  const int count = info.num_ranks();
  info.rank_table.assign(count, -1);
  for (int prow = 0; prow < info.nprow; ++prow) {
    for (int pcol = 0; pcol < info.npcol; ++pcol) {
      info.rank_table[prow * info.npcol + pcol] = Cblacs_pnum(blacs_context, prow, pcol);
    }
  }
  int size = 0;
  check_mpi(MPI_Comm_size(info.comm, &size), "MPI_Comm_size");
  std::vector<int> positions(2 * static_cast<std::size_t>(size));
  const int mine[2] = {info.myrow, info.mycol};
  check_mpi(MPI_Allgather(mine, 2, MPI_INT, positions.data(), 2, MPI_INT, info.comm),
            "MPI_Allgather");
  bool consistent = size == count;
  for (int rank = 0; consistent && rank < size; ++rank) {
    const int row = positions[2 * rank], col = positions[2 * rank + 1];
    consistent =
        row >= 0 && row < info.nprow && col >= 0 && col < info.npcol && info.rank(row, col) == rank;
  }
  if (!consistent) {
    throw Error("hetscal: BLACS context " + std::to_string(blacs_context) +
                ": Cblacs_pnum does not number the context's communicator");
  }
}

std::unique_ptr<ContextInfo> build_context_info(int blacs_context, MPI_Comm blacs_comm) {
  auto info = std::make_unique<ContextInfo>();
  Cblacs_gridinfo(blacs_context, &info->nprow, &info->npcol, &info->myrow, &info->mycol);
  check_mpi(MPI_Comm_dup(blacs_comm, &info->comm), "MPI_Comm_dup");
  try {
    check_mpi(MPI_Comm_rank(info->comm, &info->my_rank), "MPI_Comm_rank");
    fill_rank_table(blacs_context, *info);
  } catch (...) {
    (void)MPI_Comm_free(&info->comm);  // the first failure is the one reported
    throw;
  }
  return info;
}

}  // namespace

GridPosition ContextInfo::position(int rank) const {
  for (int index = 0; index < num_ranks(); ++index) {
    if (rank_table[index] == rank) return {index / npcol, index % npcol};
  }
  throw InvalidArgument("hetscal: rank " + std::to_string(rank) + " is not in the process grid");
}

const ContextInfo& context_info(int blacs_context) {
  int nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  Cblacs_gridinfo(blacs_context, &nprow, &npcol, &myrow, &mycol);
  if (nprow < 1 || npcol < 1 || myrow < 0 || mycol < 0) {
    throw InvalidArgument("hetscal: BLACS context " + std::to_string(blacs_context) +
                          " is not a grid this process belongs to");
  }
  const MPI_Comm blacs_comm = blacs_communicator(blacs_context);
  void* cached = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(blacs_comm, context_keyval(), &cached, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<const ContextInfo*>(cached);

  std::unique_ptr<ContextInfo> info = build_context_info(blacs_context, blacs_comm);
  check_mpi(MPI_Comm_set_attr(blacs_comm, context_keyval(), info.get()), "MPI_Comm_set_attr");
  ++live_contexts;
  return *info.release();
}

std::size_t cached_context_count() { return live_contexts.load(); }

}  // namespace hetscal::mpi
