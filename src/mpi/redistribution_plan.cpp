#include "mpi/redistribution_plan.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/common/error.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/segments.hpp"

namespace hetscal::mpi {
namespace {

using layout::Distribution;
using layout::GlobalTile;

bool transposes(Op op) { return op != Op::None; }

// Appends `piece`, extending the last piece instead when it continues it in memory.
void append_piece(std::vector<Piece>& pieces, const Piece& piece) {
  if (!pieces.empty()) {
    Piece& last = pieces.back();
    if (last.row_stride == piece.row_stride && last.col_stride == piece.col_stride &&
        piece.offset == last.offset + last.rows * last.row_stride) {
      last.rows += piece.rows;
      return;
    }
  }
  pieces.push_back(piece);
}

// Folds the newest group into the one before it when it is the same pieces, `cols` columns
// further on: the message order is unchanged and the copy loops get longer.
void fold_last_group(std::vector<ColumnGroup>& groups) {
  if (groups.size() < 2) return;
  ColumnGroup& previous = groups[groups.size() - 2];
  const ColumnGroup& last = groups.back();
  if (previous.pieces.size() != last.pieces.size()) return;
  for (std::size_t k = 0; k < last.pieces.size(); ++k) {
    const Piece& a = previous.pieces[k];
    const Piece& b = last.pieces[k];
    if (a.rows != b.rows || a.row_stride != b.row_stride || a.col_stride != b.col_stride ||
        b.offset != a.offset + previous.cols * a.col_stride) {
      return;
    }
  }
  previous.cols += last.cols;
  groups.pop_back();
}

void append_local(std::vector<LocalCopy>& copies, const LocalCopy& copy) {
  if (!copies.empty()) {
    LocalCopy& last = copies.back();
    const auto continues = [](const Piece& a, const Piece& b) {
      return a.row_stride == b.row_stride && a.col_stride == b.col_stride &&
             b.offset == a.offset + a.rows * a.row_stride;
    };
    if (last.cols == copy.cols && continues(last.source, copy.source) &&
        continues(last.target, copy.target)) {
      last.source.rows += copy.source.rows;
      last.target.rows += copy.target.rows;
      return;
    }
  }
  copies.push_back(copy);
}

// Membership of the calling rank in the owner sets of every tile row or column.
std::vector<char> membership(const Distribution& d, bool rows, int me) {
  const std::int64_t count = rows ? d.rows().count() : d.cols().count();
  std::vector<char> member(static_cast<std::size_t>(count));
  for (std::int64_t t = 0; t < count; ++t) {
    const std::vector<int> group = rows ? d.row_group(t) : d.col_group(t);
    member[static_cast<std::size_t>(t)] = std::binary_search(group.begin(), group.end(), me);
  }
  return member;
}

// Enumerates one matrix's rectangles in message order and sorts them into sends, receives
// and local copies of the calling rank.
class TrafficBuilder {
 public:
  TrafficBuilder(const MatrixMove& move, int me, int num_ranks)
      : move_(move),
        me_(me),
        sends_(num_ranks),
        receives_(num_ranks),
        last_send_segment_(num_ranks, -1),
        last_receive_segment_(num_ranks, -1) {
    for (int p = 0; p < num_ranks; ++p)
      sends_[static_cast<std::size_t>(p)].peer = receives_[static_cast<std::size_t>(p)].peer = p;
  }

  MatrixTraffic build() {
    const Distribution& source = *move_.source;
    const Distribution& target = *move_.target;
    const bool t = transposes(move_.op);
    const auto row_segments = intersect(source.rows(), t ? target.cols() : target.rows());
    const auto col_segments = intersect(source.cols(), t ? target.rows() : target.cols());
    source_rows_ = membership(source, true, me_);
    source_cols_ = membership(source, false, me_);
    // Target membership indexed like the source dimension it meets (swapped by a transpose).
    target_rows_ = membership(target, !t, me_);
    target_cols_ = membership(target, t, me_);

    for (const Segment& col : col_segments) {
      if (!source_cols_[static_cast<std::size_t>(col.source_tile)] &&
          !target_cols_[static_cast<std::size_t>(col.target_tile)]) {
        continue;
      }
      if (move_.part == Part::Whole) {
        visit_group(row_segments, col);
      } else {
        visit_triangle(row_segments, col);
      }
    }
    MatrixTraffic traffic;
    traffic.op = move_.op;
    traffic.local = std::move(local_);
    for (auto& peer : sends_)
      if (peer.elements > 0) traffic.sends.push_back(std::move(peer));
    for (auto& peer : receives_)
      if (peer.elements > 0) traffic.receives.push_back(std::move(peer));
    return traffic;
  }

 private:
  enum class Coverage { None, Partial, Whole };

  // How much of the rectangle `row` x `col` lies in the move's triangle.
  Coverage coverage(const Segment& row, const Segment& col) const {
    const std::int64_t first_row = row.start, last_row = row.start + row.length - 1;
    const std::int64_t first_col = col.start, last_col = col.start + col.length - 1;
    if (move_.part == Part::Lower) {
      if (first_row >= last_col) return Coverage::Whole;
      return last_row < first_col ? Coverage::None : Coverage::Partial;
    }
    if (last_row <= first_col) return Coverage::Whole;
    return first_row > last_col ? Coverage::None : Coverage::Partial;
  }

  // The rows of `row` that column `j` has in the triangle (length 0 when none).
  Segment rows_in_column(Segment row, std::int64_t j) const {
    const std::int64_t end = row.start + row.length;
    const std::int64_t first = move_.part == Part::Lower ? std::max(row.start, j) : row.start;
    const std::int64_t last_plus_one = move_.part == Part::Lower ? end : std::min(end, j + 1);
    row.start = first;
    row.length = std::max<std::int64_t>(0, last_plus_one - first);
    return row;
  }

  // A triangle's column segment: the rectangles the diagonal crosses column by column, cut
  // to the triangle, then the rectangles wholly inside as one group.
  void visit_triangle(const std::vector<Segment>& row_segments, const Segment& col) {
    std::vector<Segment> crossed, inside;
    for (const Segment& row : row_segments) {
      const Coverage c = coverage(row, col);
      if (c == Coverage::Partial) crossed.push_back(row);
      if (c == Coverage::Whole) inside.push_back(row);
    }
    for (std::int64_t j = col.start; j < col.start + col.length; ++j) {
      std::vector<Segment> rows;
      for (const Segment& row : crossed) {
        const Segment cut = rows_in_column(row, j);
        if (cut.length > 0) rows.push_back(cut);
      }
      visit_group(rows, {j, 1, col.source_tile, col.target_tile});
    }
    visit_group(inside, col);
  }

  // One message group: the rectangles `rows` x `col` this rank sends, receives or copies.
  void visit_group(const std::vector<Segment>& rows, const Segment& col) {
    const std::int64_t group = next_group_++;
    const bool source_col = source_cols_[static_cast<std::size_t>(col.source_tile)];
    const bool target_col = target_cols_[static_cast<std::size_t>(col.target_tile)];
    for (const Segment& row : rows) {
      const bool in_source = source_col && source_rows_[static_cast<std::size_t>(row.source_tile)];
      const bool in_target = target_col && target_rows_[static_cast<std::size_t>(row.target_tile)];
      if (in_source || in_target) visit(row, col, group);
    }
    fold_groups_of_segment(group);
  }

  void visit(const Segment& row, const Segment& col, std::int64_t segment) {
    const Distribution& source = *move_.source;
    const Distribution& target = *move_.target;
    const bool t = transposes(move_.op);
    const GlobalTile source_tile{row.source_tile, col.source_tile};
    const GlobalTile target_tile = t ? GlobalTile{col.target_tile, row.target_tile}
                                     : GlobalTile{row.target_tile, col.target_tile};
    const int from = source.owner(source_tile);
    const int to = target.owner(target_tile);
    if (from != me_ && to != me_) return;
    Piece source_piece, target_piece;
    if (from == me_) source_piece = source_side(row, col, source_tile);
    if (to == me_) target_piece = target_side(row, col, target_tile);
    if (from == me_ && to == me_) {
      append_local(local_, {source_piece, target_piece, col.length});
    } else if (from == me_) {
      add(sends_[static_cast<std::size_t>(to)], last_send_segment_[static_cast<std::size_t>(to)],
          segment, col.length, source_piece);
    } else {
      add(receives_[static_cast<std::size_t>(from)],
          last_receive_segment_[static_cast<std::size_t>(from)], segment, col.length, target_piece);
    }
  }

  Piece source_side(const Segment& row, const Segment& col, GlobalTile tile) const {
    const layout::TileLocation p = move_.source_storage->tile_location(tile);
    const std::int64_t r = row.start - move_.source->rows().offset(tile.row);
    const std::int64_t c = col.start - move_.source->cols().offset(tile.col);
    return {p.offset + r + c * p.ld, row.length, 1, p.ld};
  }

  // Under a transpose source rows run along target columns: consecutive source rows are a
  // leading dimension apart in the target, consecutive source columns adjacent.
  Piece target_side(const Segment& row, const Segment& col, GlobalTile tile) const {
    const layout::TileLocation p = move_.target_storage->tile_location(tile);
    const std::int64_t ld = p.ld;
    if (!transposes(move_.op)) {
      const std::int64_t r = row.start - move_.target->rows().offset(tile.row);
      const std::int64_t c = col.start - move_.target->cols().offset(tile.col);
      return {p.offset + r + c * ld, row.length, 1, ld};
    }
    const std::int64_t r = col.start - move_.target->rows().offset(tile.row);
    const std::int64_t c = row.start - move_.target->cols().offset(tile.col);
    return {p.offset + r + c * ld, row.length, ld, 1};
  }

  static void add(PeerTraffic& peer, std::int64_t& last_segment, std::int64_t segment,
                  std::int64_t cols, const Piece& piece) {
    if (last_segment != segment) {
      peer.groups.push_back({cols, {}});
      last_segment = segment;
    }
    append_piece(peer.groups.back().pieces, piece);
    peer.elements += piece.rows * cols;
  }

  void fold_groups_of_segment(std::int64_t segment) {
    for (std::size_t p = 0; p < sends_.size(); ++p) {
      if (last_send_segment_[p] == segment) fold_last_group(sends_[p].groups);
      if (last_receive_segment_[p] == segment) fold_last_group(receives_[p].groups);
    }
  }

  const MatrixMove& move_;
  int me_;
  std::vector<PeerTraffic> sends_, receives_;
  std::vector<std::int64_t> last_send_segment_, last_receive_segment_;
  std::vector<LocalCopy> local_;
  std::vector<char> source_rows_, source_cols_, target_rows_, target_cols_;
  std::int64_t next_group_ = 0;  ///< message groups numbered in message order
};

// Two messages in flight each way per peer, 16 MiB of buffers in all (fresh memory costs
// about 0.03 s here), messages between 1 MiB (which still run at full bandwidth between two
// ranks of this machine) and 4 MiB (2 ranks).
std::size_t default_message_bytes(int num_ranks) {
  constexpr std::size_t kBudget = std::size_t{16} << 20, kLeast = std::size_t{1} << 20,
                        kMost = std::size_t{4} << 20;
  const auto peers = static_cast<std::size_t>(std::max(1, num_ranks - 1));
  return std::clamp(kBudget / (4 * peers), kLeast, kMost);
}

void check_move(const MatrixMove& move, std::size_t index, int num_ranks, int me) {
  const std::string name = "hetscal: matrix " + std::to_string(index) + " of a redistribution";
  if (!move.source || !move.target || !move.source_storage || !move.target_storage) {
    throw InvalidArgument(name + " lacks a distribution or a storage");
  }
  if (move.source_storage->rank() != me || move.target_storage->rank() != me) {
    throw InvalidArgument(name + ": local storages of ranks " +
                          std::to_string(move.source_storage->rank()) + " and " +
                          std::to_string(move.target_storage->rank()) + " used on rank " +
                          std::to_string(me));
  }
  const auto same_split = [](const layout::TileSplit& a, const layout::TileSplit& b) {
    return a.extent() == b.extent() && a.block() == b.block() && a.first() == b.first();
  };
  if (!same_split(move.source->rows(), move.source_storage->rows()) ||
      !same_split(move.source->cols(), move.source_storage->cols()) ||
      !same_split(move.target->rows(), move.target_storage->rows()) ||
      !same_split(move.target->cols(), move.target_storage->cols())) {
    throw InvalidArgument(name + ": a local storage does not match its distribution's tiles");
  }
  const bool t = transposes(move.op);
  const auto& target_rows = t ? move.target->cols() : move.target->rows();
  const auto& target_cols = t ? move.target->rows() : move.target->cols();
  if (move.source->rows().extent() != target_rows.extent() ||
      move.source->cols().extent() != target_cols.extent()) {
    throw InvalidArgument(name + ": source " + std::to_string(move.source->rows().extent()) + "x" +
                          std::to_string(move.source->cols().extent()) + " does not match target " +
                          std::to_string(move.target->rows().extent()) + "x" +
                          std::to_string(move.target->cols().extent()) + (t ? " transposed" : ""));
  }
  if (move.source->num_ranks() > num_ranks || move.target->num_ranks() > num_ranks) {
    throw InvalidArgument(name + ": distributions over " +
                          std::to_string(move.source->num_ranks()) + " and " +
                          std::to_string(move.target->num_ranks()) +
                          " ranks on a communicator of " + std::to_string(num_ranks));
  }
  if (move.part != Part::Whole &&
      (t || move.source->rows().extent() != move.source->cols().extent())) {
    throw InvalidArgument(name + ": a triangle is moved only untransposed, from a square matrix");
  }
}

}  // namespace

RedistributionPlan::RedistributionPlan(MPI_Comm comm, const std::vector<MatrixMove>& moves)
    : comm_(comm) {
  check_mpi(MPI_Comm_rank(comm, &my_rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &num_ranks_), "MPI_Comm_size");
  for (std::size_t k = 0; k < moves.size(); ++k) check_move(moves[k], k, num_ranks_, my_rank_);
  send_counts_.assign(static_cast<std::size_t>(num_ranks_), 0);
  receive_counts_.assign(static_cast<std::size_t>(num_ranks_), 0);
  message_bytes_ = default_message_bytes(num_ranks_);
  for (const MatrixMove& move : moves) {
    matrices_.push_back(TrafficBuilder(move, my_rank_, num_ranks_).build());
    for (const PeerTraffic& peer : matrices_.back().sends)
      send_counts_[static_cast<std::size_t>(peer.peer)] += peer.elements;
    for (const PeerTraffic& peer : matrices_.back().receives)
      receive_counts_[static_cast<std::size_t>(peer.peer)] += peer.elements;
  }
}

void RedistributionPlan::set_message_bytes(std::size_t bytes) {
  if (bytes == 0) throw InvalidArgument("hetscal: a redistribution's messages cannot be empty");
  message_bytes_ = bytes;
}

std::int64_t RedistributionPlan::total_send() const {
  return std::accumulate(send_counts_.begin(), send_counts_.end(), std::int64_t{0});
}

std::int64_t RedistributionPlan::total_receive() const {
  return std::accumulate(receive_counts_.begin(), receive_counts_.end(), std::int64_t{0});
}

std::int64_t RedistributionPlan::total_local() const {
  std::int64_t total = 0;
  for (const MatrixTraffic& m : matrices_) {
    for (const LocalCopy& copy : m.local) total += copy.source.rows * copy.cols;
  }
  return total;
}

}  // namespace hetscal::mpi
