#pragma once
/// @file workspace.hpp
/// The planned copies of a taken-over call's operands, kept between calls of a context.
/// Touching fresh memory is not free: on this machine a new 100 MB array costs about 0.25 s
/// of page faults before any useful work (0.4 GB/s), a quarter of a 4,000³ GEMM on two
/// ranks. So the buffers are reused by every later computed call (they grow to the largest
/// call: hetscal's copy of the largest call's operands, no more than ScaLAPACK's own arrays
/// of that call; they are released with the context, and when a priced call is forwarded,
/// runtime/route.cpp), and large ones are huge pages populated in one
/// call (mpi/fresh_pages.hpp: 3.7 GB/s here, against 0.55 GB/s faulted in lazily). The
/// redistributions' message buffers are kept here too.
#include <cstddef>
#include <memory>
#include <vector>

#include "mpi/message_buffers.hpp"

namespace hetscal::runtime {

/// Memory from allocate_fresh, returned with std::free.
struct FreeDeleter {
  void operator()(std::byte* p) const;
};
using FreshMemory = std::unique_ptr<std::byte[], FreeDeleter>;

/// `bytes` of uninitialised memory, 2 MiB-aligned with huge pages advised when that large
/// (where the system offers them). @throws std::bad_alloc.
FreshMemory allocate_fresh(std::size_t bytes);

class Workspace {
 public:
  /// Uninitialised room for `count` elements of T in buffer `slot` (contents of an earlier
  /// call may remain: every element a kernel reads is first written by the move in).
  /// Grows the buffer when it is too small. @throws std::bad_alloc.
  template <typename T>
  T* buffer(std::size_t slot, std::size_t count) {
    return reinterpret_cast<T*>(bytes_for(slot, count * sizeof(T)));
  }

  /// Bytes buffer(slot, count) would newly allocate for T (0 when the buffer is large enough).
  template <typename T>
  std::size_t growth(std::size_t slot, std::size_t count) const {
    const std::size_t held = slot < buffers_.size() ? buffers_[slot].bytes : 0;
    return count * sizeof(T) > held ? count * sizeof(T) : 0;
  }

  /// Bytes held over all buffers.
  std::size_t bytes() const;

  /// Gives every buffer back (the next call allocates afresh). @return the bytes given back.
  std::size_t release() noexcept;

  /// The message buffers of the redistributions in and out of every call (used one after
  /// the other, so one pair serves both: RedistributionPlan::use_buffers).
  mpi::MessageBuffer& send_buffer() { return send_buffer_; }
  mpi::MessageBuffer& receive_buffer() { return receive_buffer_; }

 private:
  struct Buffer {
    FreshMemory data;
    std::size_t bytes = 0;
  };
  std::byte* bytes_for(std::size_t slot, std::size_t bytes);

  std::vector<Buffer> buffers_;
  mpi::MessageBuffer send_buffer_, receive_buffer_;
};

}  // namespace hetscal::runtime
