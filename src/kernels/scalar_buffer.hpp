#pragma once
/// @file scalar_buffer.hpp
/// The kernels' bulk buffers of matrix elements (panels, stacked tiles, message staging,
/// moved operands) are allocated apart from their control data (counts, offsets, owner
/// tables, pivots), through one pair of functions. A simulation at scale replaces that pair
/// (tests/simgrid/shared_workspace.cpp) to put the elements in SMPI shared memory, where
/// every allocation aliases the same block: harmless for elements that no computation reads
/// (ComputeMode::Skip), fatal for a table that steers the kernel. Unless replaced, the
/// buffers are allocated as std::allocator allocates them.
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace hetscal::kernels {

/// Where the elements of a ScalarBuffer come from: both set, or neither (the default).
struct ScalarBufferHooks {
  void* (*allocate)(std::size_t bytes) = nullptr;  ///< throws std::bad_alloc on failure
  void (*release)(void* block, std::size_t bytes) = nullptr;
};

/// Sets this process's hooks, before its first kernel call (a buffer is released by the
/// hooks in place when it is freed). SimGrid builds only, like ComputeMode::Skip.
/// @throws InvalidArgument outside SimGrid builds, or when only one hook is set
void set_scalar_buffer_hooks(ScalarBufferHooks hooks);

namespace detail {
void* allocate_scalars(std::size_t bytes);
void release_scalars(void* block, std::size_t bytes) noexcept;
}  // namespace detail

/// The allocator of ScalarBuffer: detail::allocate_scalars and release_scalars.
template <typename T>
struct ScalarAllocator {
  using value_type = T;
  ScalarAllocator() = default;
  template <typename U>
  ScalarAllocator(const ScalarAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(detail::allocate_scalars(n * sizeof(T)));
  }
  void deallocate(T* block, std::size_t n) noexcept { detail::release_scalars(block, n * sizeof(T)); }
};

template <typename T, typename U>
bool operator==(const ScalarAllocator<T>&, const ScalarAllocator<U>&) noexcept {
  return true;
}
template <typename T, typename U>
bool operator!=(const ScalarAllocator<T>&, const ScalarAllocator<U>&) noexcept {
  return false;
}

/// A kernel's buffer of matrix elements.
template <typename T>
using ScalarBuffer = std::vector<T, ScalarAllocator<T>>;

/// ScalarAllocator, its elements left uninitialised when sized (resize): for a buffer whose
/// every element a kernel writes before it reads it (message staging, gathered panels), so
/// that the pages of the parts a call never uses are never touched (a take-over's peak
/// memory, issue 28).
template <typename T>
struct WrittenFirstAllocator : ScalarAllocator<T> {
  WrittenFirstAllocator() = default;
  template <typename U>
  WrittenFirstAllocator(const WrittenFirstAllocator<U>&) noexcept {}
  template <typename U>
  struct rebind {
    using other = WrittenFirstAllocator<U>;
  };
  /// Sizing leaves the element as the allocation left it.
  template <typename U>
  void construct(U*) noexcept {}
  template <typename U, typename... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};

/// A kernel's buffer of matrix elements each written before it is read (WrittenFirstAllocator).
template <typename T>
using WrittenFirstBuffer = std::vector<T, WrittenFirstAllocator<T>>;

}  // namespace hetscal::kernels
