// Linked into the simulated programs at scale (bench_scale_cluster): the kernels' buffers of
// matrix elements (panels, stacked tiles, interchange and message staging: ScalarBuffer,
// zero-filled) go to SMPI shared memory, like the matrices (simulation_support.hpp). They
// are real memory otherwise, and at 256 simulated ranks in one process they took 10 GB and
// growing for an LU of order 47,104. Their contents are meaningless under ComputeMode::Skip,
// where no local BLAS runs.
//
// Only those buffers: SMPI's global shared malloc maps one file block under every shared
// allocation, of every rank, so any two alias. Sharing every large allocation of the program
// (a replaced operator new, as first done here) also shared the kernels' control tables once
// they passed 1 MiB (the factorisations' per-rank reach of each tile row and column, 1.5 MB
// each at 256 ranks and N = 47,104): the two tables overwrote each other, the ranks sized
// their message buffers by one and sent by the other, and the LU stopped on a staging buffer
// too small and an MPI_Irecv into an empty one.
//
// Small buffers (below kSharedFrom) stay private: sharing them saves little. The shared ones
// are remembered apart, so that each block goes back to its allocator.
#include "shared_workspace.hpp"

#include <mpi.h>

#include <cstddef>
#include <new>
#include <set>

#include "kernels/scalar_buffer.hpp"

namespace hetscal::bench {
namespace {

constexpr std::size_t kSharedFrom = std::size_t{1} << 20;  ///< 1 MiB

/// This rank's shared blocks (each rank has its own copy of this program's globals).
std::set<void*>& shared_blocks() {
  static std::set<void*>* blocks = new std::set<void*>;  // never destroyed: frees may follow exit
  return *blocks;
}

void* allocate(std::size_t bytes) {
  if (bytes < kSharedFrom) return ::operator new(bytes);
  void* block = SMPI_SHARED_MALLOC(bytes);
  if (block == nullptr) throw std::bad_alloc();
  shared_blocks().insert(block);
  return block;
}

void release(void* block, std::size_t) {
  if (block == nullptr) return;
  const auto shared = shared_blocks().find(block);
  if (shared == shared_blocks().end()) {
    ::operator delete(block);
    return;
  }
  shared_blocks().erase(shared);
  SMPI_SHARED_FREE(block);
}

}  // namespace

void share_kernel_buffers() { kernels::set_scalar_buffer_hooks({allocate, release}); }

}  // namespace hetscal::bench
