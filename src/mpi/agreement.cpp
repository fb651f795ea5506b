#include "mpi/agreement.hpp"

#include <algorithm>
#include <climits>
#include <exception>
#include <vector>

#include "mpi/mpi_error.hpp"

namespace hetscal::mpi {
namespace {

constexpr int kDescMult = 100;
constexpr int kNoError = INT_MAX;

// The failing rank's message, broadcast from it (it is the only one that knows it).
std::string message_of(MPI_Comm comm, int failed_rank, const std::string& local_failure) {
  int me = 0;
  check_mpi(MPI_Comm_rank(comm, &me), "MPI_Comm_rank");
  // Bounded, so that a huge message cannot make the others allocate without limit.
  constexpr int kMaxMessage = 1024;
  int length = me == failed_rank ? static_cast<int>(std::min<std::size_t>(local_failure.size(), kMaxMessage)) : 0;
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, failed_rank, comm), "MPI_Bcast");
  std::string text(static_cast<std::size_t>(length), '\0');
  if (me == failed_rank) text = local_failure.substr(0, static_cast<std::size_t>(length));
  check_mpi(MPI_Bcast(text.data(), length, MPI_CHAR, failed_rank, comm), "MPI_Bcast");
  return text;
}

}  // namespace

void agree_on_stage(MPI_Comm comm, const char* stage, const std::string& local_failure) {
  int size = 0, me = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(comm, &me), "MPI_Comm_rank");
  const int mine = local_failure.empty() ? size : me;
  int first_failed = size;
  check_mpi(MPI_Allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first_failed == size) return;
  const std::string message = message_of(comm, first_failed, local_failure);
  // A stage that failed inside the same stage (a kernel's own agreement) already says so.
  const std::string prefix = std::string(stage) + " failed on rank ";
  throw StageFailed(first_failed, message.compare(0, prefix.size(), prefix) == 0
                                      ? message
                                      : prefix + std::to_string(first_failed) + ": " + message);
}

void run_agreed(MPI_Comm comm, const char* stage, const std::function<void()>& local_part) {
  std::string failure;
  try {
    local_part();
  } catch (const std::exception& e) {
    failure = e.what();
    if (failure.empty()) failure = "unknown error";
  } catch (...) {
    failure = "unknown error";
  }
  agree_on_stage(comm, stage, failure);
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
