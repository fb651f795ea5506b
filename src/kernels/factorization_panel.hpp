#pragma once
/// @file factorization_panel.hpp
/// Internal to kernels::lu and kernels::qr: one step's panel, gathered on one rank. The
/// owners of the panel's tiles (i, k), i >= k, send them to the step's panel rank, one
/// message per owner; the panel rank lays them out as one column-major (M − offset(k))×kb
/// block, factorises it with LAPACK (Factor: xGETRF for the LU, so that the pivot search needs
/// no message per column; xGEQRF and xLARFT for the QR), and sends every rank, in one
/// message, the factored tile rows it receives (factorization_tiles.hpp: its own tiles of the panel
/// and the tile rows its row block and trailing update need), stacked in increasing tile row order.
/// What every rank needs of the step besides (the LU's INFO and pivots, the QR's τ and T) is
/// broadcast to every rank.
///
/// Every transfer is non-blocking except the panel rank's wait for the panel's tiles. Two
/// slots serve even and odd steps in turn, so that step k+1's panel travels while step k's
/// factored tiles are still being used. Where the LU's panel rank reads its rows tile by tile,
/// it writes its tiles back into A and reads its own rows there, so that the panel it gathered
/// is free again once the factored rows have left and its slot holds only the other ranks'
/// rows it needs (none on a P×1 grid). Messages of one kind between two ranks are matched
/// in posting order, which is step order on every rank, on the factorisation's own
/// communicator. All buffers are sized once, by allocate(), before the first message.
///
/// A Factor provides: `using Shared` (the element type of the broadcast);
/// `static std::int64_t shared_size(const FactorizationTiles&, std::int64_t k)` (elements broadcast
/// at step k); `void allocate(const FactorizationTiles&)` (its own workspace, for every step this
/// rank factorises); `void factorise(const FactorizationTiles&, std::int64_t k, T* panel,
/// std::int64_t ld, Shared* shared)` (factorises the panel_rows(k)×width(k) panel in place and
/// fills the broadcast); `static constexpr bool kFactorsInA` (whether a panel rank that holds the
/// whole panel in one block of A may factorise it there: then no gather, no copy of its own
/// rows, which are read where A holds them; the Factor must not write its L rows afterwards);
/// `static constexpr bool kReadsOwnRowsInA` (whether a panel rank that reads the rows tile by
/// tile may read its own rows in A once written back, instead of in the panel it gathered,
/// which need then not outlive the factored rows' sends: so for the LU, whose update sums over
/// the panel's columns only; not for the QR, whose W sums over the panel's rows in GEMMs that
/// span rows as far as they follow one another in memory: rows read in A would group
/// otherwise than in the panel, and round otherwise).
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/contiguous_messages.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/rank_groups.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/summa_support.hpp"
#include "kernels/tile_blocks.hpp"
#include "kernels/wait_requests.hpp"
#include "layout/local_storage.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

/// Whether a factorisation of `a` reads the factored panel's rows tile by tile
/// (GatheredPanel::allocate's by_tile, l_rows): on every storage but a Cartesian local array,
/// whose update reads a rank's panel rows as one block of its stack (l_tile).
template <typename T>
bool reads_rows_by_tile(const DistributedMatrix<T>& a) {
  return dynamic_cast<const layout::CartesianLocalLayout*>(a.storage) == nullptr;
}

/// The panels of the factorisation as this rank sees them.
template <typename T, typename Factor>
class GatheredPanel {
 public:
  using Shared = typename Factor::Shared;

  /// The elements of T each buffer holds on this rank, for the largest step it serves.
  struct Sizes {
    std::array<std::int64_t, 2> stacked{0, 0};  ///< each slot's received (or gathered) tile rows
    std::array<std::int64_t, 2> shared{0, 0};   ///< each slot's broadcast, in Shared
    std::int64_t panel = 0;     ///< the panel rank's gathered panel (none when panel_in_slot)
    /// Whether the panel rank gathers each panel in its step's slot (after the rows it stacks
    /// there, where it reads its own rows in A and that takes less).
    bool panel_in_slot = false;
    std::int64_t own = 0;       ///< this rank's panel tiles sent to the panel rank
    std::int64_t gathered = 0;  ///< the staging of the other ranks' panel tiles
    std::int64_t factored = 0;  ///< the staging of the factored rows sent on (the same buffer)
    /// The panel rank's most (rank, tile row) pairs listing one step's gather or sends.
    std::int64_t row_pairs = 0;
    /// Ranks the panel rank's listing tells apart: P where this rank factorises a panel.
    std::int64_t ranks_met = 0;
    /// Bytes of the buffers (Factor's own workspace apart).
    std::int64_t bytes() const {
      return static_cast<std::int64_t>(sizeof(T)) *
                 (stacked[0] + stacked[1] + panel + own + std::max(gathered, factored)) +
             static_cast<std::int64_t>(sizeof(Shared)) * (shared[0] + shared[1]) +
             static_cast<std::int64_t>(sizeof(RankGroups::Pair)) * row_pairs +
             static_cast<std::int64_t>(sizeof(std::uint64_t)) * ranks_met;
    }
  };
  /// What allocate() sizes for `a` on this rank: only the buffers a step uses (no panel, no
  /// gather and no stack of its own rows where the panel rank factorises in A; no staging of
  /// its own tiles on the panel rank). Local, allocates nothing of A's size.
  static Sizes sizes(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, bool by_tile = false);

  /// Sizes every buffer for the largest step it serves (sizes()): the whole workspace,
  /// allocated without communicating. `a` must outlive the panel (l_rows reads its tiles).
  /// @param by_tile whether the kernel reads the factored rows tile by tile (l_rows; any
  ///        storage but a Cartesian local array, whose update reads a rank's rows as one block
  ///        of its stack, l_tile). Then a panel rank needs no copy of its rows beside the panel
  ///        (an in-place take-over's peak memory, issue 28): where Factor::kReadsOwnRowsInA, it
  ///        reads its own rows in A and stacks only the other ranks' rows it needs, gathering
  ///        the panel in a buffer of its own (free again once the factored rows have left: on
  ///        a P×1 grid its only panel-sized buffer) or after that stack in its slot, whichever
  ///        takes less; otherwise it gathers each panel in its slot and reads its rows there,
  ///        the slot then being what the factored rows are sent from: nothing may write it
  ///        before they left (the QR's diagonal V tile is made explicit in a copy).
  void allocate(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, bool by_tile = false);

  /// Starts step k: the panel's tiles travel to the panel rank, which factorises the panel
  /// and sends the factored tile rows on; every rank posts its receives and joins the
  /// broadcast. @pre column k holds every earlier step's interchanges and
  /// updates; step k-2 was finished.
  void start(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
             MPI_Comm comm);

  /// Waits for step k's broadcast and factored tile rows, and writes this rank's panel tiles
  /// back into A.
  void finish(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k);

  /// Step k's broadcast: Factor::shared_size(tiles, k) elements. @pre finish(k) returned.
  const Shared* shared(std::int64_t k) const { return slot(k).shared.data(); }
  /// Factored tile row i of step k (R.size(i)×width(k)) where this rank reads it, and its
  /// leading dimension: its stack or the panel (l_tile), or this rank's tile (i, k) of A where
  /// it reads its own rows there (allocate's by_tile); `at` null when this rank did not receive
  /// it.
  BlockPartner<const T> l_rows(std::int64_t k, std::int64_t i) const {
    const Slot& s = slot(k);
    const std::int64_t at = s.l_start[static_cast<std::size_t>(i)];
    if (at == kInA) {
      const layout::TileLocation where = a_.storage->tile_location({i, k});
      return {a_.at(where), where.ld};
    }
    return {at < 0 ? nullptr : s.base + at, s.ld};
  }
  /// Factored tile row i of step k in this rank's stack (leading dimension l_ld(k)), or
  /// nullptr when it is not there: for a kernel that reads its rows as one block, which never
  /// reads its own rows in A.
  const T* l_tile(std::int64_t k, std::int64_t i) const {
    const Slot& s = slot(k);
    const std::int64_t at = s.l_start[static_cast<std::size_t>(i)];
    return at < 0 ? nullptr : s.base + at;
  }
  /// The same, writable (the QR makes its copy of the diagonal tile's V explicit).
  T* l_tile(std::int64_t k, std::int64_t i) {
    Slot& s = slot(k);
    const std::int64_t at = s.l_start[static_cast<std::size_t>(i)];
    return at < 0 ? nullptr : s.base + at;
  }
  std::int64_t l_ld(std::int64_t k) const { return slot(k).ld; }

  /// Waits for every transfer this rank still has in flight.
  void wait_sends() {
    for (Slot& s : slots_) wait_all(s.sends);
    wait_all(gather_send_);
  }
  /// Waits until step k's factored rows have left this rank (nothing when k < 0): before A's
  /// tile column k changes (the later steps' interchanges), where a panel was factorised in A.
  void wait_step_sends(std::int64_t k) {
    if (k >= 0 && slot(k).sends_step == k) wait_all(slot(k).sends);
  }

 private:
  /// l_start's marks: a tile row this rank does not receive, one it reads in A.
  static constexpr std::int64_t kNone = -1, kInA = -2;
  struct Slot {
    WrittenFirstBuffer<T> l;            ///< received tile rows, stacked (l_rows×width)
    std::vector<std::int64_t> l_start;  ///< per tile row: first row in l, kNone or kInA
    std::int64_t l_rows = 0;
    std::vector<Shared> shared;  ///< what the panel rank broadcasts
    MPI_Request broadcast = MPI_REQUEST_NULL, receive = MPI_REQUEST_NULL;
    std::vector<MPI_Request> sends;  ///< the panel rank's sends of the factored rows
    std::int64_t sends_step = -1;    ///< the step of `sends` (a slot serves every other step)
    /// Where the tile rows of l_start are: l, or the panel where A holds it (kFactorsInA).
    T* base = nullptr;
    std::int64_t ld = 1;
  };
  Slot& slot(std::int64_t k) { return slots_[static_cast<std::size_t>(k % 2)]; }
  const Slot& slot(std::int64_t k) const { return slots_[static_cast<std::size_t>(k % 2)]; }

  /// Counts, on step k's panel rank, the factored rows it stages for the other ranks.
  class StagedRows {
   public:
    /// Elements staged at step k: every receiving rank's rows but those sent as one block
    /// (all of a gathered panel's rows); adds the (rank, tile row) pairs listed to *pairs.
    std::int64_t count(const FactorizationTiles& tiles, std::int64_t k, bool in_a, std::int64_t* pairs);

   private:
    RanksMet met_;
    std::vector<std::int64_t> rows_of_;  ///< per rank: its rows at the step, 0 between steps
    std::vector<int> receivers_;
  };

  /// Where the tile rows `rank` receives at step k stack; returns their number of rows.
  /// @param own_in_a whether its own tiles of the panel are read in A (kInA), not stacked.
  static std::int64_t plan_rows(const FactorizationTiles& tiles, std::int64_t k, int rank,
                                std::vector<std::int64_t>* start, bool own_in_a = false);
  /// Rows of column k at or below tile row k that this rank owns.
  static std::int64_t own_panel_rows(const FactorizationTiles& tiles, std::int64_t k);
  void send_own_tiles(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                      std::int64_t k, MPI_Comm comm);
  void factorise(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
                 MPI_Comm comm);
  /// Gathers panel k into `panel` (leading dimension panel_rows(k)).
  void gather(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k, T* panel,
              MPI_Comm comm);
  void send_factored(const FactorizationTiles& tiles, std::int64_t k, const T* panel, std::int64_t ld,
                     MPI_Comm comm);
  /// Sets lengths_ and offsets_ to the blocks of step k's tile rows [first, last) (one rank's
  /// group of rows_by_rank_) in a panel of leading dimension ld; false when they hold no row.
  bool select_rows(const FactorizationTiles& tiles, std::int64_t k, RankGroups::Iterator first,
                   RankGroups::Iterator last, std::int64_t ld);
  /// The panel's tiles (i >= k, k) where this rank owns every one of them and they follow one
  /// another in one buffer of A with one leading dimension (a 1xQ grid's column; a column an
  /// in-place storage received whole): the first one's first element and `ld`; else nullptr.
  static T* whole_panel_in_a(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k,
                             std::int64_t* ld) {
    const std::optional<layout::TileLocation> first = whole_panel_location(tiles, a, k);
    if (!first) return nullptr;
    *ld = first->ld;
    return a.at(*first);
  }
  /// The same test; the location of the panel's first tile (read of a.storage only).
  static std::optional<layout::TileLocation> whole_panel_location(const FactorizationTiles& tiles,
                                                                  const DistributedMatrix<T>& a, std::int64_t k);
  /// Whether step k's panel rank (this rank) factorises the panel where A holds it.
  static bool factorises_in_a(const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k) {
    return Factor::kFactorsInA && whole_panel_location(tiles, a, k).has_value();
  }
  /// Copies this rank's tiles (i, k), i >= k, between A and a column-major block where tile
  /// row i starts at row row_of(i), in the direction `copy`.
  template <typename RowOf>
  void copy_own_tiles(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                      std::int64_t k, T* block, std::int64_t ld, RowOf&& row_of, Copy copy) const;

  std::array<Slot, 2> slots_;
  bool own_rows_in_a_ = false;  ///< a panel rank reads its own rows in A (allocate)
  bool rows_in_panel_ = false;  ///< or all its rows in the panel, gathered in its slot
  bool panel_in_slot_ = false;  ///< it gathers each panel in its slot (Sizes::panel_in_slot)
  DistributedMatrix<T> a_;      ///< where l_rows finds them
  /// The panel rank's panel, (M − offset(k))×width(k), gathered and factorised; none where it
  /// factorises every panel in A.
  WrittenFirstBuffer<T> panel_;
  Factor factor_;
  WrittenFirstBuffer<T> own_tiles_;  ///< this rank's panel tiles on their way to the panel rank
  std::vector<RowRun> runs_;
  std::vector<int> lengths_, offsets_;
  /// The panel rank's listing of a step's messages: the tile rows gathered from each rank,
  /// then the factored rows sent to each, found from the owners of each tile row, not by
  /// asking every rank about every row (issue 32).
  RankGroups rows_by_rank_;
  RanksMet met_;
  std::vector<MPI_Request> gather_receives_, gather_send_;
  WrittenFirstBuffer<T> staging_;   ///< the staging of gathered_, then of factored_
  ContiguousReceives<T> gathered_;  ///< the panel rank's receives of the other ranks' tiles
  ContiguousSends<T> factored_;     ///< its sends of the factored rows
};

template <typename T, typename Factor>
std::int64_t GatheredPanel<T, Factor>::plan_rows(const FactorizationTiles& tiles, std::int64_t k,
                                                 int rank, std::vector<std::int64_t>* start, bool own_in_a) {
  std::int64_t rows = 0;
  for (std::int64_t i = k; i < tiles.rows().count(); ++i) {
    const bool received = tiles.receives_panel_row(rank, i, k);
    const bool in_a = received && own_in_a && tiles.owner(i, k) == rank;
    if (start != nullptr) (*start)[static_cast<std::size_t>(i)] = in_a ? kInA : received ? rows : kNone;
    if (received && !in_a) rows += tiles.rows().size(i);
  }
  return rows;
}

template <typename T, typename Factor>
std::int64_t GatheredPanel<T, Factor>::StagedRows::count(const FactorizationTiles& tiles, std::int64_t k,
                                                         bool in_a, std::int64_t* pairs) {
  met_.resize(tiles.num_ranks());
  rows_of_.resize(static_cast<std::size_t>(tiles.num_ranks()), 0);
  receivers_.clear();
  tiles.for_each_panel_row_recipient(k, met_, [&](int rank, std::int64_t i) {
    std::int64_t& rows = rows_of_[static_cast<std::size_t>(rank)];
    if (rows == 0) receivers_.push_back(rank);
    rows += tiles.rows().size(i);
    ++*pairs;
  });
  std::int64_t staged = 0;
  for (const int rank : receivers_) {
    std::int64_t& rows = rows_of_[static_cast<std::size_t>(rank)];
    if (rows > 0 && (in_a || rows < tiles.panel_rows(k))) staged += rows * tiles.width(k);
    rows = 0;
  }
  return staged;
}

template <typename T, typename Factor>
std::int64_t GatheredPanel<T, Factor>::own_panel_rows(const FactorizationTiles& tiles,
                                                      std::int64_t k) {
  const std::vector<std::int64_t>& mine = tiles.my_rows_in_column(k);
  std::int64_t rows = 0;
  for (auto i = std::lower_bound(mine.begin(), mine.end(), k); i != mine.end(); ++i)
    rows += tiles.rows().size(*i);
  return rows;
}

template <typename T, typename Factor>
typename GatheredPanel<T, Factor>::Sizes GatheredPanel<T, Factor>::sizes(const FactorizationTiles& tiles,
                                                                          const DistributedMatrix<T>& a,
                                                                          bool by_tile) {
  const bool own_rows_in_a = by_tile && Factor::kReadsOwnRowsInA;
  Sizes sizes;
  StagedRows staged_rows;
  std::array<std::int64_t, 2> panel_in_slot{0, 0};  // each slot, were the panels gathered in them
  for (std::int64_t k = 0; k < tiles.steps(); ++k) {
    const std::size_t slot = static_cast<std::size_t>(k % 2);
    const std::int64_t kb = tiles.width(k), own = own_panel_rows(tiles, k) * kb;
    const std::int64_t stacked = plan_rows(tiles, k, tiles.my_rank(), nullptr) * kb;
    sizes.shared[slot] = std::max(sizes.shared[slot], Factor::shared_size(tiles, k));
    if (tiles.panel_rank(k) != tiles.my_rank()) {
      sizes.own = std::max(sizes.own, own);
      sizes.stacked[slot] = std::max(sizes.stacked[slot], stacked);
      panel_in_slot[slot] = std::max(panel_in_slot[slot], stacked);
      continue;
    }
    // The factored rows a rank receives are staged unless they are one block: all of a
    // gathered panel's rows (its columns then follow one another).
    const bool in_a = factorises_in_a(tiles, a, k);
    std::int64_t pairs = 0;
    sizes.factored = std::max(sizes.factored, staged_rows.count(tiles, k, in_a, &pairs));
    sizes.ranks_met = tiles.num_ranks();
    sizes.row_pairs = std::max(sizes.row_pairs, pairs);
    if (in_a) continue;  // its rows are read where A holds them
    // The gather's pairs: at most one per tile row of the panel.
    sizes.row_pairs = std::max(sizes.row_pairs, tiles.rows().count() - k);
    const std::int64_t panel = tiles.panel_rows(k) * kb;
    sizes.gathered = std::max(sizes.gathered, panel - own);  // the other ranks' rows
    if (by_tile && !own_rows_in_a) {  // its rows are read in the panel, gathered in its slot
      sizes.stacked[slot] = std::max(sizes.stacked[slot], panel);
      continue;
    }
    sizes.panel = std::max(sizes.panel, panel);
    // Its stack: the rows it needs, or, reading its own in A, the other ranks' it needs.
    const std::int64_t needed = own_rows_in_a ? plan_rows(tiles, k, tiles.my_rank(), nullptr, true) * kb : stacked;
    sizes.stacked[slot] = std::max(sizes.stacked[slot], needed);
    panel_in_slot[slot] = std::max(panel_in_slot[slot], needed + panel);
  }
  // Reading its own rows in A, a rank gathers each panel in its step's slot, after its stack,
  // where that takes less than a panel buffer beside the slots: where it receives panels at
  // steps of both parities besides factorising some (a 1×Q grid), not where it factorises
  // nearly all of them (the fast rank of a P×1 grid).
  if (by_tile && !own_rows_in_a) {
    sizes.panel_in_slot = true;
  } else if (own_rows_in_a &&
             panel_in_slot[0] + panel_in_slot[1] < sizes.panel + sizes.stacked[0] + sizes.stacked[1]) {
    sizes.panel_in_slot = true;
    sizes.stacked = panel_in_slot;
    sizes.panel = 0;
  }
  return sizes;
}

template <typename T, typename Factor>
void GatheredPanel<T, Factor>::allocate(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                                        bool by_tile) {
  own_rows_in_a_ = by_tile && Factor::kReadsOwnRowsInA;
  rows_in_panel_ = by_tile && !Factor::kReadsOwnRowsInA;
  a_ = a;
  const Sizes sized = sizes(tiles, a, by_tile);
  panel_in_slot_ = sized.panel_in_slot;
  for (std::size_t s = 0; s < 2; ++s) {
    slots_[s].l.resize(static_cast<std::size_t>(sized.stacked[s]));
    slots_[s].l_start.assign(static_cast<std::size_t>(tiles.rows().count()), -1);
    slots_[s].shared.resize(static_cast<std::size_t>(sized.shared[s]));
  }
  panel_.resize(static_cast<std::size_t>(sized.panel));
  factor_.allocate(tiles);
  own_tiles_.resize(static_cast<std::size_t>(sized.own));
  // A step's factored rows are sent after its gather was unpacked, and the next gather waits
  // for them to have left: the two never stage at once.
  staging_.resize(static_cast<std::size_t>(std::max(sized.gathered, sized.factored)));
  gathered_.share(staging_.data(), sized.gathered);
  factored_.share(staging_.data(), sized.factored);
  rows_by_rank_.reserve(static_cast<std::size_t>(sized.row_pairs));
  met_.resize(static_cast<int>(sized.ranks_met));
  // A message's blocks are runs of the panel's tile rows, one per column (select_row_runs):
  // nothing grows once the steps run.
  const std::size_t ranks = static_cast<std::size_t>(tiles.num_ranks());
  std::int64_t widest = 0;
  for (std::int64_t k = 0; k < tiles.steps(); ++k) widest = std::max(widest, tiles.width(k));
  const std::size_t blocks = static_cast<std::size_t>(tiles.rows().count() * widest);
  gathered_.reserve_blocks(blocks, ranks);
  lengths_.reserve(blocks);
  offsets_.reserve(blocks);
  gather_receives_.reserve(ranks);
  for (Slot& s : slots_) s.sends.reserve(ranks);
  gather_send_.reserve(1);
  runs_.reserve(static_cast<std::size_t>(tiles.rows().count()));
}

template <typename T, typename Factor>
void GatheredPanel<T, Factor>::start(const FactorizationTiles& tiles, const DistributedMatrix<T>& a,
                                     std::int64_t k, MPI_Comm comm) {
  Slot& s = slot(k);
  const int panel_rank = tiles.panel_rank(k);
  s.l_rows = plan_rows(tiles, k, tiles.my_rank(), &s.l_start, own_rows_in_a_ && panel_rank == tiles.my_rank());
  s.base = s.l.data();
  s.ld = std::max<std::int64_t>(s.l_rows, 1);
  if (panel_rank == tiles.my_rank()) {
    factorise(tiles, a, k, comm);
  } else {
    // A panel this rank gathered in this slot two steps ago may still be leaving from it.
    if (panel_in_slot_) wait_all(s.sends);
    if (s.l_rows > 0)
      mpi::check_mpi(MPI_Irecv(s.l.data(), mpi::mpi_count(s.l_rows * tiles.width(k), "lu: panel"),
                               mpi::mpi_type<T>(), panel_rank, mpi::tag::kFactoredPanel, comm, &s.receive), "MPI_Irecv");
    send_own_tiles(tiles, a, k, comm);
  }
  mpi::check_mpi(MPI_Ibcast(s.shared.data(), mpi::mpi_count(Factor::shared_size(tiles, k), "panel broadcast"),
                            mpi::mpi_type<Shared>(), panel_rank, comm, &s.broadcast), "MPI_Ibcast");
}

template <typename T, typename Factor>
void GatheredPanel<T, Factor>::send_own_tiles(const FactorizationTiles& tiles,
                                              const DistributedMatrix<T>& a, std::int64_t k,
                                              MPI_Comm comm) {
  const std::int64_t rows = own_panel_rows(tiles, k);
  if (rows == 0) return;
  wait_all(gather_send_);   // the previous step's tiles have left the buffer
  std::int64_t packed = 0;  // the tiles follow one another, in tile row order
  copy_own_tiles(
      tiles, a, k, own_tiles_.data(), rows,
      [&](std::int64_t i) {
        const std::int64_t at = packed;
        packed += tiles.rows().size(i);
        return at;
      },
      Copy::FromA);
  gather_send_.emplace_back(MPI_REQUEST_NULL);
  mpi::check_mpi(MPI_Isend(own_tiles_.data(), static_cast<int>(rows * tiles.width(k)), mpi::mpi_type<T>(),
                           tiles.panel_rank(k), mpi::tag::kPanelGather, comm, &gather_send_.back()), "MPI_Isend");
}

template <typename T, typename Factor>
template <typename RowOf>
void GatheredPanel<T, Factor>::copy_own_tiles(const FactorizationTiles& tiles,
                                              const DistributedMatrix<T>& a, std::int64_t k,
                                              T* block, std::int64_t ld, RowOf&& row_of,
                                              Copy copy) const {
  const std::vector<std::int64_t>& mine = tiles.my_rows_in_column(k);
  const std::int64_t kb = tiles.width(k);
  for (auto i = std::lower_bound(mine.begin(), mine.end(), k); i != mine.end(); ++i) {
    const layout::TileLocation where = a.storage->tile_location({*i, k});
    T* tile = a.at(where);
    T* rows = block + row_of(*i);
    if (copy == Copy::IntoA) {
      copy_matrix(rows, ld, tile, where.ld, tiles.rows().size(*i), kb);
    } else {
      copy_matrix(tile, where.ld, rows, ld, tiles.rows().size(*i), kb);
    }
  }
}

template <typename T, typename Factor>
void GatheredPanel<T, Factor>::factorise(const FactorizationTiles& tiles,
                                         const DistributedMatrix<T>& a, std::int64_t k,
                                         MPI_Comm comm) {
  for (Slot& previous : slots_) wait_all(previous.sends);  // the previous panels have left
  factored_.end_round();                                    // panel_ and factored_'s staging
  const std::int64_t origin = tiles.rows().offset(k);
  Slot& s = slot(k);
  std::int64_t ld = tiles.panel_rows(k);
  T* panel = Factor::kFactorsInA ? whole_panel_in_a(tiles, a, k, &ld) : nullptr;
  const bool in_a = panel != nullptr;
  if (!in_a) {
    // In the slot: after the rows stacked there, where the own rows are read in A.
    const std::int64_t stack = rows_in_panel_ ? 0 : s.l_rows * tiles.width(k);
    panel = panel_in_slot_ ? s.l.data() + stack : panel_.data();
    gather(tiles, a, k, panel, comm);
    ld = tiles.panel_rows(k);
  }
  factor_.factorise(tiles, k, panel, ld, s.shared.data());
  send_factored(tiles, k, panel, ld, comm);
  if (in_a || rows_in_panel_) {  // factorised in A, or its rows read in the panel in its slot
    s.base = panel;
    s.ld = ld;
    for (std::int64_t i = k; i < tiles.rows().count(); ++i) {
      std::int64_t& at = s.l_start[static_cast<std::size_t>(i)];
      if (at >= 0) at = tiles.rows().offset(i) - origin;
    }
    if (!in_a) {
      copy_own_tiles(
          tiles, a, k, panel, ld, [&](std::int64_t i) { return tiles.rows().offset(i) - origin; }, Copy::IntoA);
    }
    return;
  }
  // This rank's own share: its stacked tile rows (not those it reads in A), and its tiles of
  // the panel back into A. The panel is then free once the factored rows have left.
  for (std::int64_t i = k; i < tiles.rows().count(); ++i) {
    const std::int64_t at = s.l_start[static_cast<std::size_t>(i)];
    if (at >= 0)
      copy_matrix(panel + tiles.rows().offset(i) - origin, ld, s.l.data() + at, l_ld(k),
                  tiles.rows().size(i), tiles.width(k));
  }
  copy_own_tiles(
      tiles, a, k, panel, ld,
      [&](std::int64_t i) { return tiles.rows().offset(i) - origin; }, Copy::IntoA);
}

template <typename T, typename Factor>
std::optional<layout::TileLocation> GatheredPanel<T, Factor>::whole_panel_location(
    const FactorizationTiles& tiles, const DistributedMatrix<T>& a, std::int64_t k) {
  const std::vector<std::int64_t>& mine = tiles.my_rows_in_column(k);
  const auto from = std::lower_bound(mine.begin(), mine.end(), k);
  if (mine.end() - from != tiles.rows().count() - k) return std::nullopt;  // another rank holds a tile
  const layout::TileLocation first = a.storage->tile_location({k, k});
  for (std::int64_t i = k + 1; i < tiles.rows().count(); ++i) {
    const layout::TileLocation where = a.storage->tile_location({i, k});
    if (where.base != first.base || where.ld != first.ld ||
        where.offset != first.offset + tiles.rows().offset(i) - tiles.rows().offset(k))
      return std::nullopt;
  }
  return first;
}

template <typename T, typename Factor>
void GatheredPanel<T, Factor>::gather(const FactorizationTiles& tiles,
                                      const DistributedMatrix<T>& a, std::int64_t k, T* panel,
                                      MPI_Comm comm) {
  const std::int64_t ld = tiles.panel_rows(k), origin = tiles.rows().offset(k);
  // One pass over the panel's tiles, grouped by owner: not one pass per rank.
  rows_by_rank_.clear();
  for (std::int64_t i = k; i < tiles.rows().count(); ++i) {
    const int owner = tiles.owner(i, k);
    if (owner != tiles.my_rank()) rows_by_rank_.add(owner, i);
  }
  rows_by_rank_.for_each([&](int rank, RankGroups::Iterator first, RankGroups::Iterator last) {
    if (!select_rows(tiles, k, first, last, ld)) return;
    gather_receives_.emplace_back(MPI_REQUEST_NULL);
    gathered_.post(panel, lengths_, offsets_, rank, mpi::tag::kPanelGather, comm,
                   &gather_receives_.back());
  });
  copy_own_tiles(
      tiles, a, k, panel, ld,
      [&](std::int64_t i) { return tiles.rows().offset(i) - origin; }, Copy::FromA);
  wait_all(gather_receives_);
  gathered_.unpack();
}

template <typename T, typename Factor>
void GatheredPanel<T, Factor>::send_factored(const FactorizationTiles& tiles, std::int64_t k,
                                             const T* panel, std::int64_t ld, MPI_Comm comm) {
  rows_by_rank_.clear();
  tiles.for_each_panel_row_recipient(k, met_, [&](int rank, std::int64_t i) { rows_by_rank_.add(rank, i); });
  rows_by_rank_.for_each([&](int rank, RankGroups::Iterator first, RankGroups::Iterator last) {
    if (!select_rows(tiles, k, first, last, ld)) return;
    std::vector<MPI_Request>& sends = slot(k).sends;
    slot(k).sends_step = k;
    sends.emplace_back(MPI_REQUEST_NULL);
    factored_.post(panel, lengths_, offsets_, rank, mpi::tag::kFactoredPanel, comm, &sends.back());
  });
}

template <typename T, typename Factor>
bool GatheredPanel<T, Factor>::select_rows(const FactorizationTiles& tiles, std::int64_t k,
                                           RankGroups::Iterator first, RankGroups::Iterator last,
                                           std::int64_t ld) {
  const std::int64_t origin = tiles.rows().offset(k);
  runs_.clear();
  for (auto row = first; row != last; ++row)
    append_rows(runs_, tiles.rows().offset(row->index) - origin, tiles.rows().size(row->index));
  if (runs_.empty()) return false;
  select_row_runs(runs_, ld, tiles.width(k), lengths_, offsets_);
  return true;
}

template <typename T, typename Factor>
void GatheredPanel<T, Factor>::finish(const FactorizationTiles& tiles,
                                      const DistributedMatrix<T>& a, std::int64_t k) {
  Slot& s = slot(k);
  mpi::check_mpi(MPI_Wait(&s.broadcast, MPI_STATUS_IGNORE), "MPI_Wait");
  mpi::check_mpi(MPI_Wait(&s.receive, MPI_STATUS_IGNORE), "MPI_Wait");
  if (tiles.panel_rank(k) != tiles.my_rank())
    copy_own_tiles(
        tiles, a, k, s.l.data(), l_ld(k),
        [&](std::int64_t i) { return s.l_start[static_cast<std::size_t>(i)]; }, Copy::IntoA);
}

}  // namespace hetscal::kernels::detail
