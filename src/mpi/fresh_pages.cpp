#include "mpi/fresh_pages.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23  // Linux 5.14's value; older kernels answer EINVAL
#endif

namespace hetscal::mpi {

void* allocate_populated(std::size_t bytes, std::size_t& capacity) {
  const std::size_t rounded =
      (std::max<std::size_t>(bytes, 1) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* data = std::aligned_alloc(kHugePageBytes, rounded);
  if (data == nullptr) throw std::bad_alloc();
#if defined(__linux__)
  // Advice only: where transparent huge pages are off this changes nothing.
  madvise(data, rounded, MADV_HUGEPAGE);
  if (madvise(data, rounded, MADV_POPULATE_WRITE) != 0 && errno == ENOMEM) {
    std::free(data);
    throw std::bad_alloc();
  }
#endif
  capacity = rounded;
  return data;
}

}  // namespace hetscal::mpi
