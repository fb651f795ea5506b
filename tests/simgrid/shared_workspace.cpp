// Linked into the simulated programs at scale (bench_scale_cluster): every large allocation of
// the program goes to SMPI shared memory, not only the matrices (simulation_support.hpp). The
// kernels' workspace (panels, stacked tiles, interchange buffers: std::vector, zero-filled) is
// real memory otherwise, and at 256 simulated ranks in one process it took 10 GB and growing
// for an LU of order 47,104. Its contents are meaningless under ComputeMode::Skip, where no
// local BLAS runs; smaller allocations (pivots, counts, plans: below kSharedFrom) stay private,
// as a rank's control flow reads them.
//
// The shared blocks are remembered apart (their contents, headers included, are shared by
// all and overwritten by anyone), so that delete gives each block back to its allocator.
// Small allocations are plain malloc, compatible with the standard library's own new.
#include <mpi.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <set>

namespace {

constexpr std::size_t kSharedFrom = std::size_t{1} << 20;  ///< 1 MiB

/// This rank's shared blocks (each rank has its own copy of this program's globals). A node
/// container: its allocations are small, so inserting never allocates a shared block.
std::set<void*>& shared_blocks() {
  static std::set<void*>* blocks = new std::set<void*>;  // never destroyed: deletes may follow exit
  return *blocks;
}

void* allocate(std::size_t bytes) {
  if (bytes < kSharedFrom) {
    void* block = std::malloc(bytes == 0 ? 1 : bytes);
    if (block == nullptr) throw std::bad_alloc();
    return block;
  }
  void* block = SMPI_SHARED_MALLOC(bytes);
  if (block == nullptr) throw std::bad_alloc();
  shared_blocks().insert(block);
  return block;
}

void release(void* data) noexcept {
  if (data == nullptr) return;
  const auto shared = shared_blocks().find(data);
  if (shared == shared_blocks().end()) {
    std::free(data);
    return;
  }
  shared_blocks().erase(shared);
  SMPI_SHARED_FREE(data);
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate(bytes); }
void* operator new[](std::size_t bytes) { return allocate(bytes); }
void operator delete(void* data) noexcept { release(data); }
void operator delete[](void* data) noexcept { release(data); }
void operator delete(void* data, std::size_t) noexcept { release(data); }
void operator delete[](void* data, std::size_t) noexcept { release(data); }
