#pragma once
/// @file contiguous_messages.hpp
/// Internal to the factorisations: blocks of an array (lengths[b] elements at element
/// offsets[b]) sent and received as contiguous messages. Open MPI (4.1, shared memory) moves
/// a message above its eager limit (4 KiB) whose send or receive buffer is not contiguous only
/// while both ranks are inside MPI calls, where a contiguous one is read by the receiver
/// alone; so a rank that posted its part of a non-contiguous message and then computed held
/// the other one back for the whole computation. Measured here (2 ranks, the sender working
/// 0.5 s without calling MPI after its Isend of 512 KiB): contiguous on both sides, received
/// in 3 ms; strided on either side, in 0.5 s. In hetscal's QR on a 2x1 grid the panel rank
/// so waited for the other rank's panel rows through that rank's whole partial products,
/// every step. The blocks are merged where adjacent (on a grid they mostly are one block,
/// moved in place); otherwise they are packed into (or unpacked from) a staging buffer.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/flop_counter.hpp"
#include "kernels/scalar_buffer.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

/// Merges adjacent blocks in place; returns how many remain (lengths and offsets are cut to it).
inline std::size_t merge_adjacent_blocks(std::vector<int>& lengths, std::vector<int>& offsets) {
  std::size_t blocks = 0;
  for (std::size_t b = 0; b < lengths.size(); ++b) {
    if (blocks > 0 && offsets[blocks - 1] + lengths[blocks - 1] == offsets[b]) {
      lengths[blocks - 1] += lengths[b];
    } else {
      lengths[blocks] = lengths[b];
      offsets[blocks] = offsets[b];
      ++blocks;
    }
  }
  lengths.resize(blocks);
  offsets.resize(blocks);
  return blocks;
}

inline std::int64_t total_length(const std::vector<int>& lengths) {
  std::int64_t total = 0;
  for (const int length : lengths) total += length;
  return total;
}

/// A staging buffer's bound is the kernel's own arithmetic: exceeding it is a bug, refused
/// here rather than written past. @throws std::logic_error
inline void require_room(std::int64_t room, std::int64_t staged, std::int64_t count) {
  if (staged + count > room)
    throw std::logic_error("contiguous_messages: staging of " + std::to_string(room) + " elements cannot hold " +
                           std::to_string(staged + count));
}

/// Where a round's blocks are staged: a buffer of its own (reserve), or one it shares with
/// messages of another kind that never stage at the same time (share).
template <typename T>
class Staging {
 public:
  /// Room for `elements` of its own. Allocates.
  void reserve(std::int64_t elements) {
    own_.resize(static_cast<std::size_t>(elements));
    share(own_.data(), elements);
  }
  /// Stages in `elements` at `data`, which the caller owns and keeps. Allocates nothing.
  void share(T* data, std::int64_t elements) {
    data_ = data;
    room_ = elements;
  }
  T* data() const { return data_; }
  std::int64_t room() const { return room_; }

 private:
  WrittenFirstBuffer<T> own_;  ///< touched only where a round stages
  T* data_ = nullptr;
  std::int64_t room_ = 0;
};

/// Sends of blocks, packed into a staging buffer when they are not one block. A round of
/// sends ends when the caller has waited for all of them (then the staging is reused).
template <typename T>
class ContiguousSends {
 public:
  /// Room for the most elements one round packs. Allocates; communicates nothing.
  void reserve(std::int64_t elements) { staging_.reserve(elements); }
  /// The same in `elements` at `data`, kept by the caller (Staging::share).
  void share(T* data, std::int64_t elements) { staging_.share(data, elements); }

  /// Posts the Isend of the blocks of `data` to `peer` into `request`. lengths and offsets
  /// are merged in place. @pre data outlives the send; the round's packed blocks fit.
  void post(const T* data, std::vector<int>& lengths, std::vector<int>& offsets, int peer, int tag,
            MPI_Comm comm, MPI_Request* request) {
    const std::size_t blocks = merge_adjacent_blocks(lengths, offsets);
    const T* start = blocks == 1 ? data + offsets[0] : staging_.data() + staged_;
    const std::int64_t count = total_length(lengths);
    if (blocks > 1) {
      require_room(staging_.room(), staged_, count);
      T* packed = staging_.data() + staged_;
      for (std::size_t b = 0; b < blocks && elements_are_copied(); ++b)
        packed = std::copy_n(data + offsets[b], lengths[b], packed);
      staged_ += count;
    }
    mpi::check_mpi(MPI_Isend(start, mpi::mpi_count(count, "blocks sent"), mpi::mpi_type<T>(), peer,
                             tag, comm, request),
                   "MPI_Isend");
  }

  /// The round's sends were all waited for: the staging may be written again.
  void end_round() { staged_ = 0; }

 private:
  Staging<T> staging_;
  std::int64_t staged_ = 0;
};

/// Receives of blocks, into a staging buffer when they are not one block, scattered by
/// unpack() once the round's receives have completed.
template <typename T>
class ContiguousReceives {
 public:
  /// Room for the most elements one round stages. Allocates; communicates nothing.
  void reserve(std::int64_t elements) { staging_.reserve(elements); }
  /// The same in `elements` at `data`, kept by the caller (Staging::share).
  void share(T* data, std::int64_t elements) { staging_.share(data, elements); }
  /// Room for the most blocks and messages one round stages, so that posting allocates
  /// nothing (a kernel allocates before its first message only). Allocates.
  void reserve_blocks(std::size_t blocks, std::size_t messages) {
    pending_.reserve(messages);
    block_lengths_.reserve(blocks);
    block_offsets_.reserve(blocks);
  }

  /// Posts the Irecv of the blocks of `target` from `peer` into `request`. lengths and
  /// offsets are merged in place. @pre the round's staged blocks fit.
  void post(T* target, std::vector<int>& lengths, std::vector<int>& offsets, int peer, int tag,
            MPI_Comm comm, MPI_Request* request) {
    const std::size_t blocks = merge_adjacent_blocks(lengths, offsets);
    const std::int64_t count = total_length(lengths);
    T* start = target + (blocks == 1 ? offsets[0] : 0);
    if (blocks > 1) {
      require_room(staging_.room(), staged_, count);
      start = staging_.data() + staged_;
      pending_.push_back({target, staged_, block_lengths_.size(), blocks});
      block_lengths_.insert(block_lengths_.end(), lengths.begin(), lengths.end());
      block_offsets_.insert(block_offsets_.end(), offsets.begin(), offsets.end());
      staged_ += count;
    }
    mpi::check_mpi(MPI_Irecv(start, mpi::mpi_count(count, "blocks received"), mpi::mpi_type<T>(),
                             peer, tag, comm, request),
                   "MPI_Irecv");
  }

  /// After every receive of the round completed: scatters the staged blocks to their
  /// targets and starts a new round.
  void unpack() {
    for (const Pending& p : pending_) {
      if (!elements_are_copied()) break;
      const T* from = staging_.data() + p.at;
      for (std::size_t b = p.first; b < p.first + p.blocks; ++b) {
        std::copy_n(from, block_lengths_[b], p.target + block_offsets_[b]);
        from += block_lengths_[b];
      }
    }
    pending_.clear();
    block_lengths_.clear();
    block_offsets_.clear();
    staged_ = 0;
  }

 private:
  struct Pending {
    T* target;
    std::int64_t at;    ///< first staged element
    std::size_t first;  ///< its first block in block_lengths_ / block_offsets_
    std::size_t blocks;
  };
  Staging<T> staging_;
  std::int64_t staged_ = 0;
  std::vector<Pending> pending_;
  std::vector<int> block_lengths_, block_offsets_;
};

}  // namespace hetscal::kernels::detail
