#pragma once
/// @file message_tags.hpp
/// Every tag of hetscal's point-to-point messages, one name each, so that no two exchanges
/// can share a tag by accident and no name can be defined twice with two values. Messages
/// travel on hetscal's own duplicated communicators, never on the caller's; within one, a tag
/// names one exchange, and messages of one tag between two ranks match in posting order.
/// Collectives (broadcasts, reductions, agreements) need no tag.

namespace hetscal::mpi::tag {

/// Round-trip timing between ranks 0 and 1 (runtime/machine.cpp), the latency and the
/// bandwidth of the machine's figures.
inline constexpr int kPingPong = 0;
/// Cholesky: a step's diagonal factor, from its owner to the panel's owners
/// (kernels/cholesky_panel.hpp).
inline constexpr int kCholeskyDiagonal = 1;
/// Cholesky: a step's solved panel tiles, to the ranks whose trailing tiles need them
/// (kernels/cholesky_panel.hpp).
inline constexpr int kCholeskyPanel = 2;
/// LU and QR: a step's panel tiles, from their owners to the step's panel rank
/// (kernels/factorization_panel.hpp).
inline constexpr int kPanelGather = 11;
/// LU and QR: a step's factored panel tile rows, from the panel rank to every rank that
/// needs them (kernels/factorization_panel.hpp).
inline constexpr int kFactoredPanel = 12;
/// LU: a step's row interchanges applied to the tile columns right of the panel
/// (kernels/lu_interchanges.hpp, called by kernels/lu.cpp).
inline constexpr int kLuRightSwap = 13;
/// LU: a step's row interchanges applied to the tile columns left of the panel
/// (kernels/lu_interchanges.hpp, called by kernels/lu.cpp).
inline constexpr int kLuLeftSwap = 14;
/// LU: a step's solved U row block, to the ranks with trailing tiles in its columns
/// (kernels/lu_update.hpp).
inline constexpr int kLuRowBlock = 15;
/// QR: the partial sums W_j = Σ V_ikᴴ·A_ij, from their contributors to the column's root
/// (kernels/qr_update.hpp).
inline constexpr int kQrPartial = 21;
/// QR: the reduced op(T)·W_j, from the column's root back to its contributors
/// (kernels/qr_update.hpp).
inline constexpr int kQrReduced = 22;
/// In-place GEMM: a panel tile from its owner to the first rank of a group the owner is not
/// in (kernels/summa_in_place.hpp).
inline constexpr int kInPlacePanel = 31;
/// In-place take-over: surplus tiles between the caller's array and their overflow holder
/// (runtime/in_place_gemm.cpp, runtime/in_place_moves.hpp).
inline constexpr int kSurplusTile = 32;
/// Redistribution between two layouts, point-to-point rounds (mpi/redistribute.cpp).
inline constexpr int kRedistribution = 0x4853;

namespace detail {
inline constexpr int kAll[] = {kPingPong,      kCholeskyDiagonal, kCholeskyPanel, kPanelGather,
                               kFactoredPanel, kLuRightSwap,      kLuLeftSwap,    kLuRowBlock,
                               kQrPartial,     kQrReduced,        kInPlacePanel,  kSurplusTile,
                               kRedistribution};

constexpr bool all_distinct_and_valid() {
  for (int i = 0; i < static_cast<int>(sizeof(kAll) / sizeof(kAll[0])); ++i) {
    // MPI guarantees tags up to 32767 (MPI_TAG_UB is at least that).
    if (kAll[i] < 0 || kAll[i] > 32767) return false;
    for (int j = 0; j < i; ++j) {
      if (kAll[i] == kAll[j]) return false;
    }
  }
  return true;
}
}  // namespace detail

static_assert(detail::all_distinct_and_valid(),
              "message_tags.hpp: every exchange needs its own tag, within MPI's guaranteed range");

}  // namespace hetscal::mpi::tag
