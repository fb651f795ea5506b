#include "api/moved_operand.hpp"

#include <utility>

#include "core/common/error.hpp"
#include "kernels/scalar.hpp"
#include "mpi/agreement.hpp"
#include "mpi/fault_injection.hpp"
#include "mpi/redistribute.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::api {

template <typename T>
MovedOperand<T>::MovedOperand(MPI_Comm comm, mpi::CallerMatrix caller, HeteroMatrix target,
                              Written written, mpi::Op op)
    : MovedOperand(comm, HeteroMatrix{std::move(caller.distribution), std::move(caller.storage)},
                   std::move(target), written, op) {}

template <typename T>
MovedOperand<T>::MovedOperand(MPI_Comm comm, HeteroMatrix caller, HeteroMatrix target,
                              Written written, mpi::Op op)
    : comm_(comm),
      caller_(std::move(caller)),
      target_(std::move(target)),
      written_(written),
      op_(op) {
  const bool triangle = written == Written::LowerTriangle || written == Written::UpperTriangle;
  if (op != mpi::Op::None && triangle)
    throw InvalidArgument("MovedOperand: a triangle cannot be moved transposed");
}

template <typename T>
void MovedOperand<T>::allocate() {
  copy_.resize(static_cast<std::size_t>(target_.storage->local_elements()));
  const mpi::MatrixMove in{caller_.distribution.get(), caller_.storage.get(),
                           target_.distribution.get(), target_.storage.get(), op_};
  const mpi::MatrixMove out{target_.distribution.get(), target_.storage.get(),
                            caller_.distribution.get(), caller_.storage.get(), op_};
  in_.emplace(comm_, std::vector<mpi::MatrixMove>{in});
  mpi::reserve_buffers<T>(*in_);
  if (written_ == Written::Nothing) return;
  out_.emplace(comm_, std::vector<mpi::MatrixMove>{out});
  mpi::reserve_buffers<T>(*out_);
  // A triangle goes back through an image of the caller's array, so that the move, which
  // writes whole tiles, never touches the caller's other triangle.
  if (written_ != Written::Whole)
    returned_.resize(static_cast<std::size_t>(caller_.storage->local_elements()));
}

template <typename T>
void MovedOperand<T>::move_in(const T* caller_data) {
  mpi::redistribute<T>(*in_, caller_data, copy_.data());
}

template <typename T>
void MovedOperand<T>::move_back(T* caller_data) {
  if (written_ == Written::Nothing)
    throw InvalidArgument("MovedOperand: an input-only operand is never moved back");
  if (written_ == Written::Whole) {
    mpi::redistribute<T>(*out_, copy_.data(), caller_data);
    return;
  }
  mpi::redistribute<T>(*out_, copy_.data(), returned_.data());
  const layout::Distribution& d = *caller_.distribution;
  const layout::LocalLayout& storage = *caller_.storage;
  const bool lower = written_ == Written::LowerTriangle;
  // Tile by tile without a list of them: the ranks have started writing back, so nothing
  // here may fail for memory on one rank alone.
  for (std::int64_t tile = 0; tile < storage.rows().count() * storage.cols().count(); ++tile) {
    const layout::GlobalTile t{tile % storage.rows().count(), tile / storage.rows().count()};
    if (!storage.owns(t)) continue;
    const layout::TileLocation where = storage.tile_location(t);
    const std::int64_t i0 = d.rows().offset(t.row), j0 = d.cols().offset(t.col);
    for (std::int64_t c = 0; c < d.cols().size(t.col); ++c) {
      for (std::int64_t r = 0; r < d.rows().size(t.row); ++r) {
        const std::int64_t i = i0 + r, j = j0 + c;
        if (lower ? i < j : i > j) continue;
        const std::int64_t k = where.offset + r + c * where.ld;
        caller_data[k] = returned_[static_cast<std::size_t>(k)];
      }
    }
  }
}

template <typename T>
void allocate_agreed(MPI_Comm comm, std::initializer_list<MovedOperand<T>*> operands) {
  mpi::run_agreed(comm, mpi::stage_name(mpi::Stage::Allocate), [&] {
    mpi::fault_point(mpi::Stage::Allocate);
    for (MovedOperand<T>* operand : operands) operand->allocate();
  });
}

std::shared_ptr<const ContextLayout> planned_layout(const Context& context, core::Routine routine,
                                                    std::int64_t rows, std::int64_t cols,
                                                    const layout::MatrixArgument& a) {
  // Deterministic: every process plans the same layout or refuses alike (nullptr); memory is
  // not, so the planning is agreed (StageFailed on every process).
  std::shared_ptr<const ContextLayout> planned;
  mpi::run_agreed(context.grid.comm, "plan", [&] {
    try {
      planned = context.plan_factorization(routine, rows, cols,
                                           runtime::caller_layout(context.grid, a.desc, a.ia, a.ja));
    } catch (const Error&) {
      planned = nullptr;
    }
  });
  return planned;
}

// The one place where the element types are instantiated.
#define HETSCAL_INSTANTIATE_MOVED_OPERAND(T) \
  template class MovedOperand<T>;            \
  template void allocate_agreed<T>(MPI_Comm, std::initializer_list<MovedOperand<T>*>);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_MOVED_OPERAND)
#undef HETSCAL_INSTANTIATE_MOVED_OPERAND

}  // namespace hetscal::api
