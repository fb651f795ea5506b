#pragma once
/// @file redistribution_plan.hpp
/// What one rank sends, receives and copies locally to move matrices from one distribution
/// to another. Built once from the two distributions and local storages (no communication:
/// every rank knows both layouts), then executed many times (redistribute.hpp) on whatever
/// arrays hold the data. Scalar-type independent: everything is counted in elements.
///
/// Message order: for matrix after matrix, column segment after column segment of the
/// source, column after column, row segment after row segment (a triangle's column segment:
/// first its columns one by one, the rectangles the diagonal crosses cut to the triangle,
/// then the rectangles wholly inside the triangle). Sender and receiver both
/// enumerate in this order, so neither has to describe its side to the other, and each may
/// merge pieces that are contiguous in its own memory without changing the order.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/message_buffers.hpp"

namespace hetscal::mpi {

/// How the target relates to the source: target = op(source).
enum class Op { None, Transpose, ConjugateTranspose };

/// Which elements of a matrix a move carries, in the matrix's own (source) coordinates.
/// A triangle includes the diagonal; the other elements of the target are left untouched
/// (a Cholesky factor is moved back without its other triangle, which must stay as it was).
enum class Part {
  Whole,
  Lower,  ///< elements (i, j) with i >= j
  Upper,  ///< elements (i, j) with i <= j
};

/// One matrix to move: target = op(source). Both distributions number ranks of the plan's
/// communicator; the storages are the calling rank's. The pointees must stay alive while the
/// plan is built (not afterwards).
struct MatrixMove {
  const layout::Distribution* source = nullptr;
  const layout::LocalLayout* source_storage = nullptr;
  const layout::Distribution* target = nullptr;
  const layout::LocalLayout* target_storage = nullptr;
  Op op = Op::None;
  Part part = Part::Whole;  ///< a triangle only with Op::None
};

/// `rows` elements of a local array starting at `offset`, `row_stride` apart; column jj of
/// the piece starts at offset + jj * col_stride.
struct Piece {
  std::int64_t offset = 0;
  std::int64_t rows = 0;
  std::int64_t row_stride = 1;
  std::int64_t col_stride = 0;
};

/// `cols` consecutive columns of one source column segment; each column visits `pieces` in
/// order.
struct ColumnGroup {
  std::int64_t cols = 0;
  std::vector<Piece> pieces;
};

/// The elements exchanged with one peer for one matrix, in message order.
struct PeerTraffic {
  int peer = 0;
  std::int64_t elements = 0;
  std::vector<ColumnGroup> groups;
};

/// A rectangle whose source and target are both on the calling rank: `cols` columns of
/// source.rows elements copied from `source` to `target`.
struct LocalCopy {
  Piece source;
  Piece target;
  std::int64_t cols = 0;
};

/// One matrix's part of a plan on the calling rank.
struct MatrixTraffic {
  Op op = Op::None;
  std::vector<PeerTraffic> sends;     ///< sorted by peer, only peers with elements
  std::vector<PeerTraffic> receives;  ///< sorted by peer, only peers with elements
  std::vector<LocalCopy> local;
};

/// A reusable redistribution of one or several matrices in one round of messages.
class RedistributionPlan {
 public:
  /// Computes this rank's traffic. Local: no communication.
  /// @param comm communicator the distributions' ranks refer to (not duplicated here: pass
  ///        hetscal's own, e.g. ContextInfo::comm). Must outlive the plan.
  /// @param moves the matrices; source and target extents must agree (swapped under a
  ///        transpose) and both distributions must span the communicator's size.
  /// @throws InvalidArgument on mismatched extents or rank counts, or a triangle (Part) of a
  ///         transposed or non-square move.
  RedistributionPlan(MPI_Comm comm, const std::vector<MatrixMove>& moves);

  MPI_Comm comm() const { return comm_; }
  int my_rank() const { return my_rank_; }
  int num_ranks() const { return num_ranks_; }
  const std::vector<MatrixTraffic>& matrices() const { return matrices_; }
  /// Elements this rank sends to / receives from `peer` over all matrices (0 for itself).
  std::int64_t send_count(int peer) const { return send_counts_[static_cast<std::size_t>(peer)]; }
  std::int64_t receive_count(int peer) const {
    return receive_counts_[static_cast<std::size_t>(peer)];
  }
  std::int64_t total_send() const;
  std::int64_t total_receive() const;
  std::int64_t total_local() const;  ///< elements copied without MPI

  /// Largest message of the point-to-point exchange, in bytes: the traffic with a peer
  /// travels as consecutive messages of at most this size (a single column taller than that
  /// goes alone), through a few message-sized buffers per peer rather than a copy of the
  /// whole traffic, which would be fresh memory, slow to touch, the size of the matrix. Both
  /// sides of a pair cut the traffic alike only when every rank of the plan has the same
  /// value: the default depends on the communicator size alone.
  std::size_t message_bytes() const { return message_bytes_; }
  /// @pre called with the same value on every rank of the communicator. @throws
  ///      InvalidArgument when 0.
  void set_message_bytes(std::size_t bytes);

  /// The send and receive buffers, kept between executions (they are a cache: executing
  /// a plan from two threads at once is not supported).
  MessageBuffer& send_buffer() const { return *send_buffer_; }
  MessageBuffer& receive_buffer() const { return *receive_buffer_; }
  /// Executes through `send` and `receive` instead of the plan's own buffers, e.g. buffers
  /// that several plans executed one after the other share and that outlive them.
  void use_buffers(MessageBuffer& send, MessageBuffer& receive) {
    send_buffer_ = &send;
    receive_buffer_ = &receive;
  }
  /// Frees the kept buffers (the next execution allocates them again).
  void release_buffers() const {
    send_buffer_->release();
    receive_buffer_->release();
  }

 private:
  MPI_Comm comm_;
  int my_rank_ = 0, num_ranks_ = 1;
  std::vector<MatrixTraffic> matrices_;
  std::vector<std::int64_t> send_counts_, receive_counts_;
  std::size_t message_bytes_ = 0;
  mutable MessageBuffer own_send_buffer_, own_receive_buffer_;
  MessageBuffer* send_buffer_ = &own_send_buffer_;
  MessageBuffer* receive_buffer_ = &own_receive_buffer_;
};

}  // namespace hetscal::mpi
