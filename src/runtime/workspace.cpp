#include "runtime/workspace.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace hetscal::runtime {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

void FreeDeleter::operator()(std::byte* p) const { std::free(p); }

FreshMemory allocate_fresh(std::size_t bytes) {
  if (bytes < kHugePage) {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) throw std::bad_alloc();
    return FreshMemory(static_cast<std::byte*>(p));
  }
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without huge pages, small ones serve
#endif
  return FreshMemory(static_cast<std::byte*>(p));
}

std::size_t Workspace::bytes() const {
  std::size_t total = 0;
  for (const Buffer& b : buffers_) total += b.bytes;
  return total;
}

std::byte* Workspace::bytes_for(std::size_t slot, std::size_t bytes) {
  if (slot >= buffers_.size()) buffers_.resize(slot + 1);
  Buffer& b = buffers_[slot];
  if (b.bytes < bytes) {
    b.data.reset();  // give the old buffer back before asking for the larger one
    b.bytes = 0;
    b.data = allocate_fresh(bytes);
    b.bytes = bytes;
  }
  return b.data.get();
}

}  // namespace hetscal::runtime
