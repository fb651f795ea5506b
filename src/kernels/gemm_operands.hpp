#pragma once
/// @file gemm_operands.hpp
/// Internal to kernels::gemm: the layouts in which SUMMA's loop reads op(A) and op(B).
/// The loop needs op(A) M×K with C's tile rows, each tile (I, k) owned by a rank that owns C
/// tiles in tile row I, and op(B) K×N likewise along C's tile columns, with one K split for
/// both. An operand already laid out so is read in place; any other (other grid, other tile
/// size, transposed, pattern) is first redistributed into such a layout, the transpose fused
/// into the redistribution.
#include <memory>

#include "kernels/blas_enums.hpp"
#include "kernels/gemm.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"

namespace hetscal::kernels::detail {

/// How the SUMMA loop exchanges panels.
enum class SummaPath {
  Cartesian,  ///< C on a Cartesian grid in one local array: grid row/column broadcasts
  Tiled,      ///< any distribution: one broadcast per tile over its row/column group
};

/// One operand as the loop reads it: the caller's layout, or a layout owned here (then the
/// data must first be redistributed into it, with `transpose` applied).
struct OperandLayout {
  const layout::Distribution* distribution = nullptr;
  const layout::LocalLayout* storage = nullptr;
  std::unique_ptr<layout::Distribution> owned_distribution;
  std::unique_ptr<layout::LocalLayout> owned_storage;
  Op transpose = Op::NoTrans;  ///< applied when moving the caller's operand here (any Op)

  bool moved() const { return owned_distribution != nullptr; }
};

/// The aligned layouts of both operands, and which loop reads them.
struct AlignedOperands {
  SummaPath path = SummaPath::Tiled;
  OperandLayout a;  ///< op(A), M×K
  OperandLayout b;  ///< op(B), K×N
};

/// A caller's operand: its distribution, its storage on this rank, and the op applied to it.
struct OperandInput {
  const layout::Distribution* distribution = nullptr;
  const layout::LocalLayout* storage = nullptr;
  Op op = Op::NoTrans;
};

/// Chooses the loop and the layouts. Local (no communication) and deterministic: every rank
/// decides the same from the same distributions.
/// @pre the shapes conform, C has at least one tile, and every rank's storages are of the
///      same kind (all CartesianLocalLayout or not) for one matrix.
AlignedOperands align_operands(OperandInput a, OperandInput b, const layout::Distribution& c,
                               const layout::LocalLayout& c_storage, int my_rank);

/// Layouts of the reduce-style loops (summa_reduce.hpp), where op(A) (Stationary::A) or
/// op(B) (Stationary::B) stays in place and partial products of C are summed over its
/// owners.
struct ReduceOperands {
  /// The stationary operand: in place, or moved into its transposed (conjugated) tiles when
  /// op is Trans (ConjTrans).
  OperandLayout stationary;
  /// The other operand, always moved: each tile on an owner of the stationary operand's
  /// matching K tile line. Stationary::B: M×K with C's row tiles; A: K×N with C's columns.
  OperandLayout moving;
  /// Where the summed partial products land: Stationary::B: M×N with C's row tiles and
  /// op(B)'s column tiles, tile (I, J) on an owner of op(B)'s column J; A: symmetric.
  OperandLayout partial;
};

/// Chooses the layouts of the reduce-style loop keeping `keep` (A or B) in place. Local.
/// @pre keep is Stationary::A or Stationary::B; shapes conform; M, N, K > 0.
ReduceOperands align_for_reduce(Stationary keep, OperandInput a, OperandInput b,
                                const layout::Distribution& c, int my_rank);

/// The Cartesian view of C when the fast path applies to it (Cartesian distribution stored
/// in one column-major local array), else nullptr.
const layout::CartesianDistribution* cartesian_view(const layout::Distribution& d,
                                                    const layout::LocalLayout& storage);

}  // namespace hetscal::kernels::detail
