/// @file gemm.cpp
/// Driver of the distributed GEMM: argument checks, PBLAS's quick returns, beta applied once,
/// then the algorithm PBLAS's rule picks (gemm_choice.hpp): C-stationary SUMMA
/// (summa_cartesian.hpp, summa_tiled.hpp) on operands aligned with C, or the A-/B-stationary
/// loop (summa_reduce.hpp). Operands not laid out as a loop needs are first redistributed
/// (gemm_operands.hpp). Scalar types are instantiated here only.
#include "kernels/gemm.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernels/gemm_choice.hpp"
#include "kernels/gemm_operands.hpp"
#include "kernels/scalar.hpp"
#include "kernels/summa_cartesian.hpp"
#include "kernels/summa_reduce.hpp"
#include "kernels/summa_tiled.hpp"
#include "kernels/tile_updates.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/redistribute.hpp"

namespace hetscal::kernels {
namespace {

std::string shape(std::int64_t rows, std::int64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

template <typename T>
void check_view(const DistributedMatrix<T>& x, const char* name, int comm_size, int my_rank) {
  const std::string who = std::string("gemm: ") + name;
  if (x.distribution == nullptr || x.storage == nullptr)
    throw InvalidArgument(who + " lacks a distribution or a local storage");
  if (x.distribution->num_ranks() != comm_size)
    throw InvalidArgument(who + " is distributed over " + std::to_string(x.distribution->num_ranks()) +
                          " ranks but the communicator has " + std::to_string(comm_size));
  if (x.storage->rank() != my_rank)
    throw InvalidArgument(who + "'s storage is rank " + std::to_string(x.storage->rank()) +
                          "'s, called on rank " + std::to_string(my_rank));
  if (x.storage->rows() != x.distribution->rows() || x.storage->cols() != x.distribution->cols())
    throw InvalidArgument(who + "'s storage does not match its distribution's tiles");
}

/// Checks every argument; returns this rank's rank in `comm`. @throws InvalidArgument
template <typename T>
int check_arguments(Op op_a, Op op_b, const DistributedMatrix<const T>& a,
                    const DistributedMatrix<const T>& b, const DistributedMatrix<T>& c,
                    MPI_Comm comm) {
  int size = 0, rank = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  mpi::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_view(a, "A", size, rank);
  check_view(b, "B", size, rank);
  check_view(c, "C", size, rank);
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

/// The redistribution that applies op while moving an operand of scalar type T.
template <typename T>
mpi::Op move_op(Op op) {
  switch (op) {
    case Op::NoTrans: return mpi::Op::None;
    case Op::Trans: return mpi::Op::Transpose;
    case Op::ConjTrans: return is_complex_v<T> ? mpi::Op::ConjugateTranspose : mpi::Op::Transpose;
  }
  throw InvalidArgument("gemm: unknown Op");
}

/// The operand SUMMA reads: the caller's data, or a copy moved into the aligned layout.
template <typename T>
struct OperandData {
  std::vector<T> moved;
  const T* data = nullptr;
};

/// One operand to read: its aligned layout, the caller's matrix, where its data ends up.
template <typename T>
struct OperandMove {
  const detail::OperandLayout* layout;
  const DistributedMatrix<const T>* caller;
  OperandData<T>* out;
};

/// Moves the operands that need it in one round of messages (collective over `comm`; every
/// rank moves the same operands, since the choice depends on the distributions only).
template <typename T>
void move_operands(const std::vector<OperandMove<T>>& operands, MPI_Comm comm) {
  std::vector<mpi::MatrixMove> moves;
  std::vector<const T*> sources;
  std::vector<T*> targets;
  for (const OperandMove<T>& operand : operands) {
    const detail::OperandLayout& layout = *operand.layout;
    OperandData<T>& out = *operand.out;
    out.data = operand.caller->data;
    if (!layout.moved()) continue;
    out.moved.resize(static_cast<std::size_t>(layout.storage->local_elements()));
    out.data = out.moved.data();
    moves.push_back({operand.caller->distribution, operand.caller->storage, layout.distribution,
                     layout.storage, move_op<T>(layout.transpose)});
    sources.push_back(operand.caller->data);
    targets.push_back(out.moved.data());
  }
  if (moves.empty()) return;
  const mpi::RedistributionPlan plan(comm, moves);
  mpi::redistribute<T>(plan, sources, targets);
}

/// The Cartesian SUMMA, on the caller's grid communicators or, without them, on ones built
/// for this call.
template <typename T>
void run_cartesian(T alpha, const detail::AlignedOperands& aligned, const T* a, const T* b,
                   const DistributedMatrix<T>& c, MPI_Comm comm,
                   const mpi::GridCommunicators* grid_comms) {
  const auto cartesian = [](const layout::Distribution* d, const layout::LocalLayout* s) {
    const auto* storage = dynamic_cast<const layout::CartesianLocalLayout*>(s);
    const auto* distribution = dynamic_cast<const layout::CartesianDistribution*>(d);
    if (storage == nullptr || distribution == nullptr)
      throw Error("gemm: internal error, an operand of the Cartesian path is not Cartesian");
    return std::make_pair(distribution, storage);
  };
  const auto [a_dist, a_storage] = cartesian(aligned.a.distribution, aligned.a.storage);
  const auto [b_dist, b_storage] = cartesian(aligned.b.distribution, aligned.b.storage);
  const auto [c_dist, c_storage] = cartesian(c.distribution, c.storage);
  const auto summa = [&](const mpi::GridCommunicators& comms) {
    detail::summa_cartesian<T>(alpha, {a_dist, a_storage, a}, {b_dist, b_storage, b},
                               {c_dist, c_storage, c.data}, comms);
  };
  if (grid_comms != nullptr) {
    summa(*grid_comms);
  } else {
    summa(mpi::GridCommunicators(comm, c_dist->grid()));
  }
}

/// The C-stationary SUMMA (summa_cartesian.hpp or summa_tiled.hpp): C += alpha·op(A)·op(B).
template <typename T>
void run_c_stationary(T alpha, Op op_a, Op op_b, const DistributedMatrix<const T>& a,
                      const DistributedMatrix<const T>& b, const DistributedMatrix<T>& c,
                      MPI_Comm comm, int my_rank, const mpi::GridCommunicators* grid_comms) {
  const detail::AlignedOperands aligned = detail::align_operands(
      {a.distribution, a.storage, op_a}, {b.distribution, b.storage, op_b}, *c.distribution,
      *c.storage, my_rank);
  OperandData<T> a_data, b_data;
  move_operands<T>({{&aligned.a, &a, &a_data}, {&aligned.b, &b, &b_data}}, comm);
  if (aligned.path == detail::SummaPath::Cartesian) {
    run_cartesian(alpha, aligned, a_data.data, b_data.data, c, comm, grid_comms);
  } else {
    detail::summa_tiled<T>(alpha, {aligned.a.distribution, aligned.a.storage, a_data.data},
                           {aligned.b.distribution, aligned.b.storage, b_data.data},
                           {c.distribution, c.storage, c.data}, comm);
  }
}

/// The A- or B-stationary loop (summa_reduce.hpp): partial products summed over the
/// stationary operand's owners, then moved into C's layout and added.
template <typename T>
void run_reduce(Stationary keep, T alpha, Op op_a, Op op_b, const DistributedMatrix<const T>& a,
                const DistributedMatrix<const T>& b, const DistributedMatrix<T>& c, MPI_Comm comm,
                int my_rank) {
  const detail::ReduceOperands layouts = detail::align_for_reduce(
      keep, {a.distribution, a.storage, op_a}, {b.distribution, b.storage, op_b}, *c.distribution,
      my_rank);
  const bool keep_b = keep == Stationary::B;
  OperandData<T> kept, moving;
  move_operands<T>({{&layouts.stationary, keep_b ? &b : &a, &kept},
                    {&layouts.moving, keep_b ? &a : &b, &moving}},
                   comm);
  const detail::OperandLayout& partial = layouts.partial;
  std::vector<T> sums(static_cast<std::size_t>(partial.storage->local_elements()));
  detail::summa_reduce<T>(keep, alpha, {layouts.stationary.distribution, layouts.stationary.storage, kept.data},
                          {layouts.moving.distribution, layouts.moving.storage, moving.data},
                          {partial.distribution, partial.storage, sums.data()}, comm);
  std::vector<T> home(static_cast<std::size_t>(c.storage->local_elements()));
  const mpi::RedistributionPlan plan(
      comm, {{partial.distribution, partial.storage, c.distribution, c.storage, mpi::Op::None}});
  mpi::redistribute<T>(plan, sums.data(), home.data());
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
  detail::scale_owned(beta, c);
  if (alpha == T(0) || k == 0) return;  // no product to add: A and B are never read

  const Stationary algorithm = resolve_stationary(stationary, c.rows(), c.cols(), k, *c.distribution);
  if (algorithm == Stationary::C) {
    run_c_stationary(alpha, op_a, op_b, a, b, c, comm, my_rank, grid_comms);
  } else {
    run_reduce(algorithm, alpha, op_a, op_b, a, b, c, comm, my_rank);
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
#define HETSCAL_INSTANTIATE_GEMM(T)                                                          \
  template void gemm<T>(Op, Op, T, DistributedMatrix<const T>, DistributedMatrix<const T>, T, \
                        DistributedMatrix<T>, MPI_Comm, Stationary);                          \
  template void gemm<T>(Op, Op, T, DistributedMatrix<const T>, DistributedMatrix<const T>, T, \
                        DistributedMatrix<T>, MPI_Comm, const mpi::GridCommunicators&,        \
                        Stationary);
HETSCAL_INSTANTIATE_GEMM(float)
HETSCAL_INSTANTIATE_GEMM(double)
HETSCAL_INSTANTIATE_GEMM(std::complex<float>)
HETSCAL_INSTANTIATE_GEMM(std::complex<double>)
#undef HETSCAL_INSTANTIATE_GEMM

}  // namespace hetscal::kernels
