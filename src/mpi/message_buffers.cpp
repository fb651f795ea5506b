#include "mpi/message_buffers.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hetscal::mpi {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

void* MessageBuffer::reserve(std::size_t bytes) {
  if (bytes <= capacity_ && data_ != nullptr) return data_;
  release();
  const std::size_t rounded =
      (std::max<std::size_t>(bytes, 1) + kHugePage - 1) / kHugePage * kHugePage;
  data_ = std::aligned_alloc(kHugePage, rounded);
  if (data_ == nullptr) throw std::bad_alloc();
  capacity_ = rounded;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: where transparent huge pages are off this changes nothing.
  madvise(data_, rounded, MADV_HUGEPAGE);
#endif
  return data_;
}

void MessageBuffer::release() noexcept {
  std::free(data_);
  data_ = nullptr;
  capacity_ = 0;
}

}  // namespace hetscal::mpi
