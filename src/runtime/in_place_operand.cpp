#include "runtime/in_place_operand.hpp"

#include <complex>
#include <utility>

#include "kernels/scalar.hpp"
#include "kernels/summa_support.hpp"
#include "runtime/in_place_moves.hpp"

namespace hetscal::runtime {

template <typename T>
InPlaceOperand<T>::InPlaceOperand(const mpi::ContextInfo& context, const CallerOperand<T>& a, std::int64_t rows,
                                  std::int64_t cols, const std::vector<double>& speeds, layout::StoredTiles stored)
    : comm_(context.comm), caller_data_(a.data), caller_(mpi::caller_matrix(context, a.desc, a.ia - 1, a.ja - 1, rows, cols)) {
  const layout::CartesianDistribution& caller = *caller_.distribution;
  // The routines' own checks cut rows and columns alike (MB = NB, IA and JA alike in their
  // blocks: a first tile differs only where it is a whole dimension shorter than a block);
  // the kernels need it, so it is checked rather than assumed.
  const layout::TileSplit &r = caller.rows(), &c = caller.cols();
  const bool alike = r.block() == c.block() && (r.first() == c.first() || r.count() == 1 || c.count() == 1);
  if (!alike) {
    problem_ = "the in-place route needs sub(A)'s tiles square";
    return;
  }
  layout_ = minimal_move_layout(caller, speeds, core::KeptLines::Spread);
  storage_ = std::make_unique<layout::InPlaceLocalLayout>(*layout_, caller, *caller_.storage, stored);
}

template <typename T>
std::int64_t InPlaceOperand<T>::largest_tile() const {
  return kernels::detail::largest_tile(layout_->rows());
}

template <typename T>
double InPlaceOperand<T>::overflow_growth(const Workspace& workspace) const {
  return static_cast<double>(workspace.growth<T>(0, static_cast<std::size_t>(storage_->overflow_elements())));
}

template <typename T>
void InPlaceOperand<T>::allocate(Workspace& workspace, SurplusBuffers<T>& buffers) const {
  buffers.overflow = workspace.buffer<T>(0, static_cast<std::size_t>(storage_->overflow_elements()));
  const std::size_t tiles = storage_->given().size() + storage_->received().size();
  buffers.requests.reserve(tiles);
  buffers.messages.reserve(tiles);
}

template <typename T>
void InPlaceOperand<T>::move_surplus(bool in, SurplusBuffers<T>& buffers) const {
  const layout::TileSplit &rows = layout_->rows(), &cols = layout_->cols();
  std::vector<MPI_Request>& requests = buffers.requests;
  requests.clear();  // its room stays
  const auto size = [&](layout::GlobalTile t) { return std::make_pair(rows.size(t.row), cols.size(t.col)); };
  // Between two ranks, the sender's given() and the receiver's received() list their common
  // tiles in the same order (column by column of tiles, top to bottom): the messages match.
  buffers.messages.post(
      in, caller_data_, storage_->given(), [&](layout::GlobalTile t) { return caller_.storage->tile_location(t); },
      [&](layout::GlobalTile t) { return layout_->owner(t); }, size, comm_, requests);
  buffers.messages.post(
      !in, buffers.overflow, storage_->received(), [&](layout::GlobalTile t) { return storage_->tile_location(t); },
      [&](layout::GlobalTile t) { return caller_.distribution->owner(t); }, size, comm_, requests);
  mpi::check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

#define HETSCAL_INSTANTIATE_IN_PLACE_OPERAND(T) template class InPlaceOperand<T>;
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_IN_PLACE_OPERAND)
#undef HETSCAL_INSTANTIATE_IN_PLACE_OPERAND

}  // namespace hetscal::runtime
