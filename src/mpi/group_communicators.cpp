#include "mpi/group_communicators.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "core/common/error.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::mpi {
namespace {

using RankSet = std::vector<int>;

// Index of `set` in `order`, adding it if new. `order` is rebuilt identically on every rank
// because the distribution is the same everywhere.
std::size_t intern(const RankSet& set, std::map<RankSet, std::size_t>& index_of) {
  return index_of.emplace(set, index_of.size()).first->second;
}

// MPI_Comm_create_group is collective over the group's members only. Creating the groups in
// one global order (the same on every rank) cannot deadlock: the first group in that order
// has all its members ready, and so on by induction.
MPI_Comm create_group_comm(MPI_Comm parent, const RankSet& members, int tag, int my_rank) {
  if (!std::binary_search(members.begin(), members.end(), my_rank)) return MPI_COMM_NULL;
  MPI_Group parent_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(parent, &parent_group), "MPI_Comm_group");
  check_mpi(MPI_Group_incl(parent_group, static_cast<int>(members.size()), members.data(), &group),
            "MPI_Group_incl");
  MPI_Comm comm = MPI_COMM_NULL;
  const int code = MPI_Comm_create_group(parent, group, tag, &comm);
  // Freed before the check throws; a failed free only leaks a group.
  (void)MPI_Group_free(&group);
  (void)MPI_Group_free(&parent_group);
  check_mpi(code, "MPI_Comm_create_group");
  return comm;
}

}  // namespace

int GroupCommunicator::rank_of(int parent_rank) const {
  const auto it = std::lower_bound(members.begin(), members.end(), parent_rank);
  return it != members.end() && *it == parent_rank ? static_cast<int>(it - members.begin()) : -1;
}

GroupCommunicators::GroupCommunicators(MPI_Comm parent, const layout::Distribution& distribution)
    : GroupCommunicators(distribution) {
  create(parent);
}

GroupCommunicators::GroupCommunicators(const layout::Distribution& distribution)
    : num_ranks_(distribution.num_ranks()) {
  std::map<RankSet, std::size_t> index_of;
  for (std::int64_t i = 0; i < distribution.rows().count(); ++i) {
    row_index_.push_back(intern(distribution.row_group(i), index_of));
  }
  for (std::int64_t j = 0; j < distribution.cols().count(); ++j) {
    col_index_.push_back(intern(distribution.col_group(j), index_of));
  }
  groups_.resize(index_of.size());
  for (const auto& [members, index] : index_of) groups_[index].members = members;
}

void GroupCommunicators::create(MPI_Comm parent) {
  int size = 0, my_rank = 0;
  check_mpi(MPI_Comm_size(parent, &size), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(parent, &my_rank), "MPI_Comm_rank");
  if (num_ranks_ != size) {
    throw InvalidArgument("hetscal: distribution over " + std::to_string(num_ranks_) +
                          " ranks used on a communicator of " + std::to_string(size));
  }
  try {
    // Tags only need to tell apart creations that could be in flight together.
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      groups_[g].comm =
          create_group_comm(parent, groups_[g].members, static_cast<int>(g % 32768), my_rank);
    }
  } catch (...) {
    release();
    throw;
  }
}

GroupCommunicators::~GroupCommunicators() { release(); }

GroupCommunicators::GroupCommunicators(GroupCommunicators&& other) noexcept
    : num_ranks_(other.num_ranks_),
      groups_(std::move(other.groups_)),
      row_index_(std::move(other.row_index_)),
      col_index_(std::move(other.col_index_)) {
  other.groups_.clear();
}

GroupCommunicators& GroupCommunicators::operator=(GroupCommunicators&& other) noexcept {
  if (this != &other) {
    release();
    num_ranks_ = other.num_ranks_;
    groups_ = std::move(other.groups_);
    row_index_ = std::move(other.row_index_);
    col_index_ = std::move(other.col_index_);
    other.groups_.clear();
  }
  return *this;
}

void GroupCommunicators::release() noexcept {
  if (!mpi_usable()) return;
  for (GroupCommunicator& group : groups_) {
    // Nothing to report from a release: a failed free only leaks the communicator.
    if (group.comm != MPI_COMM_NULL) (void)MPI_Comm_free(&group.comm);
  }
}

}  // namespace hetscal::mpi
