/// @file gemm.cpp
/// Driver of the distributed GEMM: argument checks, PBLAS's quick returns, beta applied once,
/// then the algorithm PBLAS's rule picks (gemm_choice.hpp): C-stationary SUMMA
/// (summa_cartesian.hpp, summa_tiled.hpp) on operands aligned with C, or the A-/B-stationary
/// loop (summa_reduce.hpp). Operands not laid out as a loop needs are first redistributed
/// (gemm_operands.hpp, operand_moves.hpp). Each path first allocates all its workspace and
/// has the ranks agree on it (allocate_agreed), and only then scales C and communicates.
/// Scalar types are instantiated here only.
#include "kernels/gemm.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "kernels/allocate_agreed.hpp"
#include "kernels/gemm_choice.hpp"
#include "kernels/gemm_operands.hpp"
#include "kernels/operand_moves.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/summa_cartesian.hpp"
#include "kernels/summa_reduce.hpp"
#include "kernels/summa_tiled.hpp"
#include "kernels/tile_updates.hpp"
#include "kernels/view_checks.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/redistribute.hpp"

namespace hetscal::kernels {
namespace {

std::string shape(std::int64_t rows, std::int64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

/// Checks every argument; returns this rank's rank in `comm`. @throws InvalidArgument
template <typename T>
int check_arguments(Op op_a, Op op_b, const DistributedMatrix<const T>& a,
                    const DistributedMatrix<const T>& b, const DistributedMatrix<T>& c,
                    MPI_Comm comm) {
  int size = 0, rank = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  mpi::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_view(a, "gemm: A", size, rank);
  check_view(b, "gemm: B", size, rank);
  check_view(c, "gemm: C", size, rank);
  const bool a_plain = op_a == Op::NoTrans, b_plain = op_b == Op::NoTrans;
  const std::int64_t a_rows = a_plain ? a.rows() : a.cols(), a_cols = a_plain ? a.cols() : a.rows();
  const std::int64_t b_rows = b_plain ? b.rows() : b.cols(), b_cols = b_plain ? b.cols() : b.rows();
  if (a_rows != c.rows() || b_cols != c.cols() || a_cols != b_rows)
    throw InvalidArgument("gemm: op(A) " + shape(a_rows, a_cols) + " times op(B) " +
                          shape(b_rows, b_cols) + " does not conform with C " +
                          shape(c.rows(), c.cols()));
  return rank;
}

/// Checks that `grid_comms` serve C's grid over `comm`. @throws InvalidArgument
template <typename T>
void check_grid_comms(const mpi::GridCommunicators& grid_comms, const DistributedMatrix<T>& c,
                      MPI_Comm comm) {
  const auto* cartesian = dynamic_cast<const layout::CartesianDistribution*>(c.distribution);
  if (cartesian == nullptr)
    throw InvalidArgument("gemm: grid communicators given, but C is not on a Cartesian grid");
  if (!grid_comms.serves(comm, cartesian->grid()))
    throw InvalidArgument("gemm: the grid communicators given are not those of C's grid over "
                          "the communicator of the call");
}

/// The Cartesian view of a matrix the aligned layout put on the Cartesian path.
template <typename T>
detail::CartesianOperand<T> cartesian(const layout::Distribution* d, const layout::LocalLayout* s, T* data) {
  const auto* distribution = dynamic_cast<const layout::CartesianDistribution*>(d);
  const auto* storage = dynamic_cast<const layout::CartesianLocalLayout*>(s);
  if (distribution == nullptr || storage == nullptr)
    throw InvalidArgument("gemm: Cartesian path on a non-Cartesian layout");
  return {distribution, storage, data};
}

/// The C-stationary SUMMA (summa_cartesian.hpp or summa_tiled.hpp): C = alpha·op(A)·op(B) +
/// beta·C, the Cartesian loop on the caller's grid communicators or, without them, on ones
/// built for this call.
template <typename T>
void run_c_stationary(T alpha, Op op_a, Op op_b, const DistributedMatrix<const T>& a,
                      const DistributedMatrix<const T>& b, T beta, const DistributedMatrix<T>& c,
                      MPI_Comm comm, int my_rank, const mpi::GridCommunicators* grid_comms) {
  std::optional<detail::AlignedOperands> aligned;
  detail::OperandData<T> a_data, b_data;
  std::optional<detail::OperandMoves<T>> moves;
  std::optional<detail::CartesianSumma<T>> cartesian_summa;
  std::optional<detail::TiledSumma<T>> tiled_summa;
  std::optional<layout::ProcessGrid> grid;  // for the communicators built for this call
  detail::allocate_agreed(comm, [&] {
    aligned.emplace(detail::align_operands({a.distribution, a.storage, op_a},
                                           {b.distribution, b.storage, op_b}, *c.distribution,
                                           *c.storage, my_rank));
    moves.emplace(std::vector<detail::OperandMove<T>>{{&aligned->a, &a, &a_data}, {&aligned->b, &b, &b_data}},
                  comm);
    if (aligned->path == detail::SummaPath::Cartesian) {
      cartesian_summa.emplace(cartesian(aligned->a.distribution, aligned->a.storage, a_data.data),
                              cartesian(aligned->b.distribution, aligned->b.storage, b_data.data),
                              cartesian(c.distribution, c.storage, c.data));
      if (grid_comms == nullptr)
        grid.emplace(dynamic_cast<const layout::CartesianDistribution&>(*c.distribution).grid());
    } else {
      tiled_summa.emplace(detail::TiledOperand<const T>{aligned->a.distribution, aligned->a.storage, a_data.data},
                          detail::TiledOperand<const T>{aligned->b.distribution, aligned->b.storage, b_data.data},
                          detail::TiledOperand<T>{c.distribution, c.storage, c.data});
    }
  });
  detail::scale_owned(beta, c);
  moves->run();
  if (tiled_summa) {
    tiled_summa->run(alpha, comm);
  } else if (grid_comms != nullptr) {
    cartesian_summa->run(alpha, *grid_comms);
  } else {
    cartesian_summa->run(alpha, mpi::GridCommunicators(comm, std::move(*grid)));
  }
}

/// The A- or B-stationary loop (summa_reduce.hpp): partial products summed over the
/// stationary operand's owners, then moved into C's layout and added to beta·C.
template <typename T>
void run_reduce(Stationary keep, T alpha, Op op_a, Op op_b, const DistributedMatrix<const T>& a,
                const DistributedMatrix<const T>& b, T beta, const DistributedMatrix<T>& c,
                MPI_Comm comm, int my_rank) {
  const bool keep_b = keep == Stationary::B;
  std::optional<detail::ReduceOperands> layouts;
  detail::OperandData<T> kept, moving;
  std::optional<detail::OperandMoves<T>> moves;
  ScalarBuffer<T> sums, home;  // partial products, then the same in C's layout
  std::optional<detail::ReduceSumma<T>> summa;
  std::optional<mpi::RedistributionPlan> home_plan;
  detail::allocate_agreed(comm, [&] {
    layouts.emplace(detail::align_for_reduce(keep, {a.distribution, a.storage, op_a},
                                             {b.distribution, b.storage, op_b}, *c.distribution,
                                             my_rank));
    moves.emplace(std::vector<detail::OperandMove<T>>{{&layouts->stationary, keep_b ? &b : &a, &kept},
                                                      {&layouts->moving, keep_b ? &a : &b, &moving}},
                  comm);
    const detail::OperandLayout& partial = layouts->partial;
    sums.resize(static_cast<std::size_t>(partial.storage->local_elements()));
    summa.emplace(keep, detail::TiledOperand<const T>{layouts->stationary.distribution, layouts->stationary.storage, kept.data},
                  detail::TiledOperand<const T>{layouts->moving.distribution, layouts->moving.storage, moving.data},
                  detail::TiledOperand<T>{partial.distribution, partial.storage, sums.data()});
    home.resize(static_cast<std::size_t>(c.storage->local_elements()));
    home_plan.emplace(comm, std::vector<mpi::MatrixMove>{
                                {partial.distribution, partial.storage, c.distribution, c.storage, mpi::Op::None}});
    mpi::reserve_buffers<T>(*home_plan);
  });
  detail::scale_owned(beta, c);
  moves->run();
  summa->run(alpha, comm);
  mpi::redistribute<T>(*home_plan, sums.data(), home.data());
  detail::add_owned(c, static_cast<const T*>(home.data()));
}

/// gemm with or without the caller's grid communicators (null: built when needed).
template <typename T>
void multiply(Op op_a, Op op_b, T alpha, const DistributedMatrix<const T>& a,
              const DistributedMatrix<const T>& b, T beta, const DistributedMatrix<T>& c,
              MPI_Comm comm, const mpi::GridCommunicators* grid_comms, Stationary stationary) {
  const int my_rank = check_arguments(op_a, op_b, a, b, c, comm);
  if (grid_comms != nullptr) check_grid_comms(*grid_comms, c, comm);
  const std::int64_t k = op_a == Op::NoTrans ? a.cols() : a.rows();
  if (c.rows() == 0 || c.cols() == 0) return;
  if (alpha == T(0) || k == 0) {  // no product to add: A and B are never read, nothing moves
    detail::scale_owned(beta, c);
    return;
  }
  const Stationary algorithm = resolve_stationary(stationary, c.rows(), c.cols(), k, *c.distribution);
  if (algorithm == Stationary::C) {
    run_c_stationary(alpha, op_a, op_b, a, b, beta, c, comm, my_rank, grid_comms);
  } else {
    run_reduce(algorithm, alpha, op_a, op_b, a, b, beta, c, comm, my_rank);
  }
}

}  // namespace

template <typename T>
void gemm(Op op_a, Op op_b, T alpha, DistributedMatrix<const T> a, DistributedMatrix<const T> b,
          T beta, DistributedMatrix<T> c, MPI_Comm comm, Stationary stationary) {
  multiply(op_a, op_b, alpha, a, b, beta, c, comm, nullptr, stationary);
}

template <typename T>
void gemm(Op op_a, Op op_b, T alpha, DistributedMatrix<const T> a, DistributedMatrix<const T> b,
          T beta, DistributedMatrix<T> c, MPI_Comm comm, const mpi::GridCommunicators& grid_comms,
          Stationary stationary) {
  multiply(op_a, op_b, alpha, a, b, beta, c, comm, &grid_comms, stationary);
}

// The one place where scalar types are instantiated.
HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_GEMM_INSTANCES)

}  // namespace hetscal::kernels
