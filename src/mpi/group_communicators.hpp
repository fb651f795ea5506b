#pragma once
/// @file group_communicators.hpp
/// Row and column communicators of any Distribution: for tile row I the ranks of
/// row_group(I), for tile column J those of col_group(J). Works for Cartesian grids (one
/// communicator per process row/column) and for patterns, where a rank belongs to several
/// row groups. Every distinct rank set gets one communicator, shared by all the tile rows and
/// columns that have that set; the object is the cache (build it once per plan).
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "layout/distribution.hpp"

namespace hetscal::mpi {

/// A communicator over one set of ranks; rank k in `comm` is members[k].
struct GroupCommunicator {
  std::vector<int> members;       ///< ranks in the parent communicator, sorted
  MPI_Comm comm = MPI_COMM_NULL;  ///< MPI_COMM_NULL on ranks outside `members`
  /// Rank in `comm` of parent rank `parent_rank`, -1 if it is not a member.
  int rank_of(int parent_rank) const;
};

/// The row and column communicators of a distribution over `parent`'s ranks.
class GroupCommunicators {
 public:
  /// Builds one communicator per distinct row/column rank set. Collective over `parent`:
  /// every rank must pass an identical distribution.
  /// @param parent communicator whose ranks the distribution's owners are.
  /// @param distribution the tile -> owner map. @pre distribution.num_ranks() == size of parent.
  /// @throws InvalidArgument if the sizes differ; hetscal::Error if MPI fails.
  GroupCommunicators(MPI_Comm parent, const layout::Distribution& distribution);
  /// The same in two parts, for a caller that must agree on its allocations before any
  /// collective (an all-or-nothing take-over): this constructor allocates the groups and
  /// their indexes without communicating, create() then builds their communicators.
  explicit GroupCommunicators(const layout::Distribution& distribution);
  /// Builds the communicators of the groups planned by the constructor above. Collective over
  /// `parent`; allocates nothing of hetscal's own, so only MPI can make it fail.
  /// @pre the communicators are not built yet.
  /// @throws InvalidArgument if the distribution's ranks are not `parent`'s (on every rank
  ///   alike); hetscal::Error if MPI fails.
  void create(MPI_Comm parent);
  ~GroupCommunicators();
  GroupCommunicators(const GroupCommunicators&) = delete;
  GroupCommunicators& operator=(const GroupCommunicators&) = delete;
  GroupCommunicators(GroupCommunicators&& other) noexcept;
  GroupCommunicators& operator=(GroupCommunicators&& other) noexcept;

  /// The communicator of tile row `tile_row`'s owners. @pre 0 <= tile_row < tile rows.
  const GroupCommunicator& row(std::int64_t tile_row) const {
    return groups_[row_index_.at(tile_row)];
  }
  /// The communicator of tile column `tile_col`'s owners. @pre 0 <= tile_col < tile columns.
  const GroupCommunicator& col(std::int64_t tile_col) const {
    return groups_[col_index_.at(tile_col)];
  }
  /// Number of distinct rank sets, i.e. of communicators created.
  std::size_t distinct_groups() const { return groups_.size(); }

 private:
  void release() noexcept;

  int num_ranks_ = 0;  ///< of the distribution
  std::vector<GroupCommunicator> groups_;
  std::vector<std::size_t> row_index_;  ///< tile row -> groups_ index
  std::vector<std::size_t> col_index_;  ///< tile column -> groups_ index
};

}  // namespace hetscal::mpi
