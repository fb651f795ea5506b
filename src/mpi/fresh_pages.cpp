#include "mpi/fresh_pages.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
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

double fresh_pages_rate(std::size_t bytes) {
#if defined(__linux__)
  const std::size_t rounded =
      (std::max<std::size_t>(bytes, 1) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  const auto start = std::chrono::steady_clock::now();
  // One huge page more than needed, so that an aligned run of `rounded` bytes lies inside.
  const std::size_t mapped = rounded + kHugePageBytes;
  void* region = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (region == MAP_FAILED) return 0.0;
  const auto address = reinterpret_cast<std::uintptr_t>(region);
  void* aligned = reinterpret_cast<void*>((address + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes);
  madvise(aligned, rounded, MADV_HUGEPAGE);
  bool populated = madvise(aligned, rounded, MADV_POPULATE_WRITE) == 0;
  if (!populated && errno == EINVAL) {  // a kernel older than 5.14: touched page by page
    for (std::size_t at = 0; at < rounded; at += 4096) static_cast<volatile char*>(aligned)[at] = 1;
    populated = true;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  munmap(region, mapped);
  return populated && seconds > 0.0 ? static_cast<double>(rounded) / seconds : 0.0;
#else
  (void)bytes;
  return 0.0;
#endif
}

}  // namespace hetscal::mpi
