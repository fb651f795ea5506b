#pragma once
/// @file fresh_pages.hpp
/// Large buffers that are ready to be written at full speed. Fresh memory costs a page fault
/// on first touch, and on virtual machines a fault costs far more than the page's zeroing:
/// here (a paravirtualised guest) first touch of 512 MiB takes 1.9 s in 4 KiB pages and
/// 0.97 s in lazily faulted huge pages, but 0.14 s when the kernel populates the huge pages
/// in one call (MADV_POPULATE_WRITE, Linux 5.14). A planned copy of a caller's matrix and a
/// redistribution's message buffers are written whole right after they are allocated, so
/// populating them up front costs nothing extra.
#include <cstddef>

namespace hetscal::mpi {

/// Huge-page size the buffers are aligned and rounded to.
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

/// At least `bytes` bytes (rounded up to kHugePageBytes, the rounded size in `capacity`),
/// aligned for huge pages, advised to use them, and populated for writing where the kernel
/// can (elsewhere they fault in on first touch as usual). Free with std::free.
/// @throws std::bad_alloc when the memory is not there (also when populating finds no pages:
///         better refused here, where every rank can agree on it, than killed later).
void* allocate_populated(std::size_t bytes, std::size_t& capacity);

/// Bytes a probe of the first-touch rate populates: eight huge pages, 16 MiB: 35 ms at the
/// 0.45 GB/s this VM gives pages never touched, 67 ms at the slowest rate seen here under load,
/// under 2 ms at 10 GB/s. Not less: pages a process freed a moment before come back warm (12-19
/// GB/s here, the VM not having handed them back to its host yet), and a probe of 4 MiB read
/// 9.8-11 GB/s in the demo's runs where its copies filled memory at 0.3-1 GB/s, so the copy
/// route was priced 20 times too cheap on its first touch; at 16 MiB it read 0.44-2.8 GB/s.
constexpr std::size_t kFreshPagesProbeBytes = 8 * kHugePageBytes;

/// How fast this process gets fresh memory ready to be written, bytes per second: `bytes`
/// (rounded up to kHugePageBytes) mapped anonymously, advised and populated as
/// allocate_populated does, then unmapped. Mapped, not taken from the C library's heap,
/// whose freed blocks are pages this process already touched: the kernel hands out pages of
/// its own free lists, and on a virtual machine that reports freed pages to its host those
/// fault in from the host (0.3-1.3 GB/s here, against 10 GB/s and more for pages the guest
/// still holds). Nothing of the C library's heap is touched.
/// @return the rate, or 0 when the memory could not be mapped or populated.
double fresh_pages_rate(std::size_t bytes = kFreshPagesProbeBytes);

}  // namespace hetscal::mpi
