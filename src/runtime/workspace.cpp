#include "runtime/workspace.hpp"

#include <cstdlib>
#include <new>

#include "mpi/fresh_pages.hpp"

namespace hetscal::runtime {

void FreeDeleter::operator()(std::byte* p) const { std::free(p); }

FreshMemory allocate_fresh(std::size_t bytes) {
  if (bytes < mpi::kHugePageBytes) {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) throw std::bad_alloc();
    return FreshMemory(static_cast<std::byte*>(p));
  }
  std::size_t capacity = 0;
  return FreshMemory(static_cast<std::byte*>(mpi::allocate_populated(bytes, capacity)));
}

std::size_t Workspace::bytes() const {
  std::size_t total = 0;
  for (const Buffer& b : buffers_) total += b.bytes;
  return total + send_buffer_.capacity() + receive_buffer_.capacity();
}

std::size_t Workspace::release() noexcept {
  const std::size_t held = bytes();
  buffers_.clear();
  send_buffer_.release();
  receive_buffer_.release();
  return held;
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
