// kernels::detail::ContiguousSends and ContiguousReceives (contiguous_messages.hpp): blocks of
// an array moved as contiguous messages, around the ring of ranks (to itself on one rank):
// adjacent blocks merged and moved in place, scattered ones packed and unpacked, element
// for element as an indexed datatype would move them; two rounds reuse the staging.
#include "kernels/contiguous_messages.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

namespace hetscal::kernels::detail {
namespace {

TEST(ContiguousMessages, AdjacentBlocksAreMerged) {
  std::vector<int> lengths{3, 2, 4, 1}, offsets{0, 3, 9, 14};
  EXPECT_EQ(merge_adjacent_blocks(lengths, offsets), 3u);
  EXPECT_EQ(lengths, (std::vector<int>{5, 4, 1}));
  EXPECT_EQ(offsets, (std::vector<int>{0, 9, 14}));
  EXPECT_EQ(total_length(lengths), 10);
  lengths = {4, 1};
  offsets = {9, 13};
  EXPECT_EQ(merge_adjacent_blocks(lengths, offsets), 1u);
  EXPECT_EQ(lengths, (std::vector<int>{5}));
}

// Sends blocks of `source` to the next rank and receives the previous rank's into blocks of
// `target` (the same element counts on both sides, different places), twice.
void ring_exchange(const std::vector<int>& send_lengths, const std::vector<int>& send_offsets,
                   const std::vector<int>& receive_lengths, const std::vector<int>& receive_offsets) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  ContiguousSends<double> sends;
  ContiguousReceives<double> receives;
  sends.reserve(64);
  receives.reserve(64);
  for (int round = 0; round < 2; ++round) {
    std::vector<double> source(64), target(64, -1.0);
    for (std::size_t i = 0; i < source.size(); ++i) source[i] = 1000.0 * rank + 100.0 * round + static_cast<double>(i);
    std::vector<int> sl = send_lengths, so = send_offsets, rl = receive_lengths, ro = receive_offsets;
    MPI_Request requests[2];
    receives.post(target.data(), rl, ro, previous, 7, MPI_COMM_WORLD, &requests[0]);
    sends.post(source.data(), sl, so, next, 7, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    receives.unpack();
    sends.end_round();
    // The k-th element sent lands on the k-th element of the receive blocks.
    std::vector<double> sent;
    for (std::size_t b = 0; b < send_lengths.size(); ++b)
      for (int e = 0; e < send_lengths[b]; ++e)
        sent.push_back(1000.0 * previous + 100.0 * round + send_offsets[b] + e);
    std::vector<double> expected(64, -1.0);
    std::size_t k = 0;
    for (std::size_t b = 0; b < receive_lengths.size(); ++b)
      for (int e = 0; e < receive_lengths[b]; ++e) expected[receive_offsets[b] + e] = sent[k++];
    EXPECT_EQ(target, expected) << "round " << round;
  }
}

TEST(ContiguousMessages, OneBlockMovesInPlace) {
  ring_exchange({4, 6}, {10, 14}, {5, 5}, {30, 35});
}

TEST(ContiguousMessages, ScatteredBlocksArePackedAndUnpacked) {
  ring_exchange({3, 2, 5}, {1, 20, 40}, {4, 4, 2}, {0, 10, 60});
}

TEST(ContiguousMessages, ScatteredToOneBlockAndBack) {
  ring_exchange({2, 2, 2}, {0, 8, 16}, {6}, {50});
  ring_exchange({6}, {50}, {2, 2, 2}, {0, 8, 16});
}

}  // namespace
}  // namespace hetscal::kernels::detail
