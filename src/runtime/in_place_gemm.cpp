#include "runtime/in_place_gemm.hpp"

#include <algorithm>
#include <chrono>
#include <complex>

#include "kernels/scalar.hpp"
#include "kernels/summa_in_place.hpp"
#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"
#include "runtime/in_place_moves.hpp"

namespace hetscal::runtime {
namespace {

bool transposed(kernels::Op op) { return op != kernels::Op::NoTrans; }

template <typename T>
mpi::CallerMatrix view(const mpi::ContextInfo& context, const CallerOperand<T>& x, std::int64_t rows,
                       std::int64_t cols) {
  return mpi::caller_matrix(context, x.desc, x.ia - 1, x.ja - 1, rows, cols);
}

}  // namespace

template <typename T>
InPlaceGemm<T>::InPlaceGemm(const mpi::ContextInfo& context, const GemmCall<T>& call, const std::vector<double>& speeds)
    : context_(context),
      call_(call),
      a_(view(context, call.a, transposed(call.op_a) ? call.k : call.m, transposed(call.op_a) ? call.m : call.k)),
      b_(view(context, call.b, transposed(call.op_b) ? call.n : call.k, transposed(call.op_b) ? call.k : call.n)),
      c_(view(context, call.c, call.m, call.n)) {
  if (!kernels::detail::in_place_gemm_aligned(*a_.distribution, call.op_a, *b_.distribution, call.op_b,
                                              *c_.distribution)) {
    problem_ = "the in-place route needs op(A), op(B) and sub(C) on the same tiles along each shared dimension "
               "(block sizes and offsets)";
    return;
  }
  const layout::CartesianDistribution& caller = *c_.distribution;
  layout_ = minimal_move_layout(caller, speeds, core::KeptLines::Leading);
  // The overflow holds each tile column's received tiles stacked, column-major with their
  // rows' sum as leading dimension: columns with the same received rows then lie side by side
  // as one matrix, which the SUMMA updates with one GEMM a step, as the caller's own array.
  // Both layouts share the caller's grid, so this rank's tiles are those of its grid row's
  // tile rows and its grid column's tile columns: only those are visited (O(lines + local
  // tiles)), since every priced call under HETSCAL_TAKE_OVER=auto builds this route.
  const layout::GridCoord me = *caller.grid().coordinates(context.my_rank);
  std::vector<std::int64_t> my_rows;
  for (std::int64_t i = 0; i < caller.rows().count(); ++i)
    if (layout_->grid_row(i) == me.row) my_rows.push_back(i);
  for (std::int64_t j = 0; j < caller.cols().count(); ++j) {
    if (layout_->grid_col(j) != me.col) continue;
    std::int64_t column_rows = 0;
    for (const std::int64_t i : my_rows)
      if (caller.owner({i, j}) != context.my_rank) column_rows += caller.rows().size(i);
    std::int64_t row = 0;
    for (const std::int64_t i : my_rows) {
      const layout::GlobalTile t{i, j};
      my_tiles_.push_back(t);
      const bool kept = caller.owner(t) == context.my_rank;
      overflow_offset_.push_back(kept ? -1 : overflow_elements_ + row);
      overflow_ld_.push_back(kept ? 0 : column_rows);
      if (!kept) row += caller.rows().size(i);
    }
    overflow_elements_ += column_rows * caller.cols().size(j);
  }
}

template <typename T>
double InPlaceGemm<T>::new_bytes(const Workspace& workspace) const {
  const layout::Distribution& c = *layout_;
  const kernels::detail::PanelIndex a_lines(c.rows(), [&](std::int64_t i) { return c.row_group(i); }, context_.my_rank);
  const kernels::detail::PanelIndex b_lines(c.cols(), [&](std::int64_t j) { return c.col_group(j); }, context_.my_rank);
  const double panels = 2.0 * static_cast<double>((a_lines.extent + b_lines.extent) * k_block());
  return static_cast<double>(workspace.growth<T>(0, static_cast<std::size_t>(overflow_elements_))) +
         panels * sizeof(T);
}

template <typename T>
std::size_t InPlaceGemm<T>::surplus_tiles() const {
  // Received: this rank's tiles in the overflow. Sent: the tiles it holds in the caller's
  // layout (its grid row's tile rows by its grid column's tile columns) less those it keeps.
  const layout::CartesianDistribution& caller = *c_.distribution;
  const layout::GridCoord me = *caller.grid().coordinates(context_.my_rank);
  std::int64_t held_rows = 0, held_cols = 0;
  for (std::int64_t i = 0; i < caller.rows().count(); ++i) held_rows += caller.grid_row(i) == me.row;
  for (std::int64_t j = 0; j < caller.cols().count(); ++j) held_cols += caller.grid_col(j) == me.col;
  const auto kept = static_cast<std::size_t>(std::count(overflow_offset_.begin(), overflow_offset_.end(), -1));
  return static_cast<std::size_t>(held_rows * held_cols) - kept + (my_tiles_.size() - kept);
}

template <typename T>
std::int64_t InPlaceGemm<T>::k_block() const {
  return kernels::detail::largest_tile(transposed(call_.op_a) ? a_.distribution->rows() : a_.distribution->cols());
}

template <typename T>
TakeOverOutcome InPlaceGemm<T>::run(Workspace& workspace) const {
  const auto start = std::chrono::steady_clock::now();
  const auto since = [](std::chrono::steady_clock::time_point& mark) {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - mark).count();
    mark = now;
    return seconds;
  };
  auto mark = start;
  TakeOverOutcome outcome;
  const MPI_Comm comm = context_.comm;
  const layout::CartesianDistribution& caller = *c_.distribution;
  std::optional<kernels::detail::InPlaceSumma<T>> summa;
  T* overflow = nullptr;
  // One request per surplus tile this rank sends or receives, reserved in the allocate stage:
  // the moves allocate nothing of hetscal's, so only MPI can fail one rank while others wait.
  std::vector<MPI_Request> requests;
  // Move C's surplus between the caller's array and the overflow: in (to the overflow) or out.
  const auto move_surplus = [&](bool in) {
    requests.clear();  // keeps the capacity reserved
    std::size_t mine = 0;
    for (std::int64_t j = 0; j < caller.cols().count(); ++j) {
      for (std::int64_t i = 0; i < caller.rows().count(); ++i) {
        const layout::GlobalTile t{i, j};
        const int held = caller.owner(t), planned = layout_->owner(t);
        const bool planned_here = planned == context_.my_rank;
        if (planned_here) ++mine;
        if (held == planned) continue;
        const std::int64_t rows = caller.rows().size(i), cols = caller.cols().size(j);
        if (held == context_.my_rank) {
          const layout::TileLocation where = c_.storage->tile_location(t);
          post_tile<T>(in, call_.c.data + where.offset, rows, cols, where.ld, planned, comm, requests);
        } else if (planned_here) {
          post_tile<T>(!in, overflow + overflow_offset_[mine - 1], rows, cols, overflow_ld_[mine - 1], held, comm,
                       requests);
        }
      }
    }
    mpi::check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  };
  try {
    mpi::run_agreed(comm, "allocate", [&] {
      mpi::fault_point(mpi::Stage::Allocate);
      overflow = workspace.buffer<T>(0, static_cast<std::size_t>(overflow_elements_));
      requests.reserve(surplus_tiles());
      kernels::detail::TileBlocks<T> tiles;
      for (std::size_t i = 0; i < my_tiles_.size(); ++i) {
        const layout::GlobalTile t = my_tiles_[i];
        tiles.tiles.push_back(t);
        if (overflow_offset_[i] < 0) {
          const layout::TileLocation where = c_.storage->tile_location(t);
          tiles.data.push_back(call_.c.data + where.offset);
          tiles.ld.push_back(where.ld);
        } else {
          tiles.data.push_back(overflow + overflow_offset_[i]);
          tiles.ld.push_back(overflow_ld_[i]);
        }
      }
      summa.emplace(kernels::detail::CallerOperandView<T>{a_.distribution.get(), a_.storage.get(), call_.a.data, call_.op_a},
                    kernels::detail::CallerOperandView<T>{b_.distribution.get(), b_.storage.get(), call_.b.data, call_.op_b},
                    *layout_, std::move(tiles), context_.my_rank);
    });
    outcome.allocate_s = since(mark);
    // The group communicators are made before anything moves; the move in only reads the
    // caller's arrays and writes the overflow.
    mpi::run_agreed(comm, "move-in", [&] { mpi::fault_point(mpi::Stage::MoveIn); });
    summa->prepare(comm);
    if (call_.beta != T(0)) move_surplus(true);
    mpi::run_agreed(comm, "compute", [&] { mpi::fault_point(mpi::Stage::Compute); });
    outcome.move_in_s = since(mark);
  } catch (const std::exception& e) {
    outcome.status = TakeOverOutcome::Status::Forward;
    outcome.reason = e.what();
    outcome.seconds = since(mark) + outcome.allocate_s + outcome.move_in_s;
    return outcome;
  }
  // From here on the caller's C is written: only MPI can fail.
  try {
    mpi::slow_compute_point();
    summa->run(call_.alpha, call_.beta);
    outcome.compute_s = since(mark);
    move_surplus(false);
    outcome.move_out_s = since(mark);
    outcome.status = TakeOverOutcome::Status::Computed;
  } catch (const std::exception& e) {
    outcome.status = TakeOverOutcome::Status::FailedAfterWrite;
    outcome.reason = std::string("computing in place failed after writing into C: ") + e.what();
  }
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

#define HETSCAL_INSTANTIATE_IN_PLACE_GEMM(T) template class InPlaceGemm<T>;
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_IN_PLACE_GEMM)
#undef HETSCAL_INSTANTIATE_IN_PLACE_GEMM

}  // namespace hetscal::runtime
