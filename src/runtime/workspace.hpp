#pragma once
/// @file workspace.hpp
/// The planned copies of a taken-over call's operands, kept between calls of a context.
/// Touching fresh memory is not free: on this machine a new 100 MB array costs about 0.25 s
/// of page faults before any useful work, a quarter of a 4,000³ GEMM on two ranks. A
/// program that calls a routine in a loop reuses the same buffers; they grow to the largest
/// call and are released with the context (memory held: hetscal's copy of the largest call's
/// operands, at most what ScaLAPACK's own arrays of that call take).
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace hetscal::runtime {

class Workspace {
 public:
  /// Uninitialised room for `count` elements of T in buffer `slot` (contents of an earlier
  /// call may remain: every element a kernel reads is first written by the move in).
  /// Grows the buffer when it is too small. @throws std::bad_alloc.
  template <typename T>
  T* buffer(std::size_t slot, std::size_t count) {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned scalar");
    if (slot >= buffers_.size()) buffers_.resize(slot + 1);
    Buffer& b = buffers_[slot];
    const std::size_t bytes = count * sizeof(T);
    if (b.bytes < bytes) {
      b.data.reset();  // give the old buffer back before asking for the larger one
      b.bytes = 0;
      b.data.reset(new std::byte[bytes]);
      b.bytes = bytes;
    }
    return reinterpret_cast<T*>(b.data.get());
  }

  /// Bytes held over all buffers.
  std::size_t bytes() const {
    std::size_t total = 0;
    for (const Buffer& b : buffers_) total += b.bytes;
    return total;
  }

  /// Bytes buffer(slot, count) would newly allocate for T (0 when the buffer is large enough).
  template <typename T>
  std::size_t growth(std::size_t slot, std::size_t count) const {
    const std::size_t held = slot < buffers_.size() ? buffers_[slot].bytes : 0;
    return count * sizeof(T) > held ? count * sizeof(T) : 0;
  }

 private:
  struct Buffer {
    std::unique_ptr<std::byte[]> data;
    std::size_t bytes = 0;
  };
  std::vector<Buffer> buffers_;
};

}  // namespace hetscal::runtime
