#include "mpi/message_buffers.hpp"

#include <cstdlib>

#include "mpi/fresh_pages.hpp"

namespace hetscal::mpi {

void* MessageBuffer::reserve(std::size_t bytes) {
  if (bytes <= capacity_ && data_ != nullptr) return data_;
  release();
  data_ = allocate_populated(bytes, capacity_);
  return data_;
}

void MessageBuffer::release() noexcept {
  std::free(data_);
  data_ = nullptr;
  capacity_ = 0;
}

}  // namespace hetscal::mpi
