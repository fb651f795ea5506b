#pragma once
/// @file message_buffers.hpp
/// Reusable storage for the packed messages of a redistribution. Fresh memory costs a page
/// fault per 4 KiB page on first touch, which for large matrices takes longer than packing
/// itself; a plan executed many times therefore keeps its buffers (at most the elements that
/// cross the network) and asks the kernel for huge pages where it can.
#include <cstddef>

namespace hetscal::mpi {

/// One growable, uninitialised byte buffer aligned for huge pages.
class MessageBuffer {
 public:
  MessageBuffer() = default;
  ~MessageBuffer() { release(); }
  MessageBuffer(const MessageBuffer&) = delete;
  MessageBuffer& operator=(const MessageBuffer&) = delete;

  /// At least `bytes` bytes, reusing the current storage when it is large enough; the
  /// contents are unspecified. @throws std::bad_alloc when memory runs out.
  void* reserve(std::size_t bytes);
  /// Frees the storage.
  void release() noexcept;
  std::size_t capacity() const { return capacity_; }

 private:
  void* data_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace hetscal::mpi
