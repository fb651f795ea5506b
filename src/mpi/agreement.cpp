#include "mpi/agreement.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

#include "mpi/mpi_error.hpp"

namespace hetscal::mpi {
namespace {

constexpr int kDescMult = 100;
constexpr int kNoError = INT_MAX;

// The failing rank's message, broadcast from it (it is the only one that knows it) into
// `text` (kMaxMessage + 1 characters, NUL-terminated).
void message_of(MPI_Comm comm, int me, int failed_rank, const char* local_failure, char* text) {
  int length = 0;
  if (me == failed_rank) {
    length = static_cast<int>(std::min(std::strlen(local_failure), StageFailed::kMaxMessage));
    std::memcpy(text, local_failure, static_cast<std::size_t>(length));
  }
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, failed_rank, comm), "MPI_Bcast");
  check_mpi(MPI_Bcast(text, length, MPI_CHAR, failed_rank, comm), "MPI_Bcast");
  text[length] = '\0';
}

}  // namespace

StageFailed::StageFailed(int failed_rank, const char* stage, const char* detail) noexcept
    : Error(""), failed_rank_(failed_rank) {
  // A stage that failed inside the same stage (a kernel's own agreement) already says so.
  char prefix[128];
  std::snprintf(prefix, sizeof prefix, "%s failed on rank ", stage);
  if (std::strncmp(detail, prefix, std::strlen(prefix)) == 0) {
    std::snprintf(message_, sizeof message_, "%s", detail);
  } else {
    std::snprintf(message_, sizeof message_, "%s%d: %s", prefix, failed_rank, detail);
  }
}

void agree_on_stage(MPI_Comm comm, const char* stage, const std::string& local_failure, bool echo) {
  agree_on_stage(comm, stage, local_failure.c_str(), echo);
}

void agree_on_stage(MPI_Comm comm, const char* stage, const char* local_failure, bool echo) {
  int size = 0, me = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(comm, &me), "MPI_Comm_rank");
  // Keys: a first-hand failure its rank, an echo size + its rank, success 2·size; the
  // smallest names the failure to report.
  const bool failed = local_failure != nullptr && *local_failure != '\0';
  const int mine = !failed ? 2 * size : echo ? size + me : me;
  int first = 2 * size;
  check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == 2 * size) return;
  const int failed_rank = first % size;
  char message[StageFailed::kMaxMessage + 1];
  message_of(comm, me, failed_rank, local_failure, message);
  throw StageFailed(failed_rank, stage, message);
}

bool on_every_rank(MPI_Comm comm, bool mine) {
  const int local = mine ? 1 : 0;
  int every = 0;
  check_mpi(MPI_Allreduce(&local, &every, 1, MPI_INT, MPI_LAND, comm), "MPI_Allreduce");
  return every != 0;
}

int argument_info_key(int info) {
  if (info >= 0) return kNoError;
  return info < -kDescMult ? -info : -info * kDescMult;
}

int argument_info_of_key(int key) {
  if (key == kNoError) return 0;
  return key % kDescMult == 0 ? -key / kDescMult : -key;
}

int earliest_argument_info(MPI_Comm comm, int local_info) {
  const int key = argument_info_key(local_info);
  int earliest = kNoError;
  check_mpi(MPI_Allreduce(&key, &earliest, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  return argument_info_of_key(earliest);
}

int smallest_positive_info(MPI_Comm comm, int local_info) {
  const int key = local_info > 0 ? local_info : INT_MAX;
  int smallest = INT_MAX;
  check_mpi(MPI_Allreduce(&key, &smallest, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  return smallest == INT_MAX ? 0 : smallest;
}

}  // namespace hetscal::mpi
