#include "mpi/redistribute.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "mpi/copy_block.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::mpi {
namespace {

using detail::Conjugate;
using detail::copy_block;

constexpr int kRedistributionTag = 0x4853;

// Every message of a round: the count of MPI's calls is an int.
int mpi_count(std::int64_t elements) { return mpi::mpi_count(elements, "redistribution message"); }

// Uninitialised storage: every element is written by packing or by MPI before it is read
// (the scalar types are trivially copyable, so no constructor needs to run).
template <class T>
T* buffer_of(MessageBuffer& buffer, std::int64_t elements) {
  static_assert(std::is_trivially_copyable_v<T>, "packed as raw bytes");
  return static_cast<T*>(buffer.reserve(static_cast<std::size_t>(elements) * sizeof(T)));
}

const PeerTraffic* find_peer(const std::vector<PeerTraffic>& list, int peer) {
  const auto it = std::lower_bound(list.begin(), list.end(), peer,
                                   [](const PeerTraffic& p, int value) { return p.peer < value; });
  return it != list.end() && it->peer == peer ? &*it : nullptr;
}

std::int64_t group_rows(const ColumnGroup& group) {
  std::int64_t rows = 0;
  for (const Piece& piece : group.pieces) rows += piece.rows;
  return rows;
}

// Message element (jj, piece k, ii) of a group sits at jj * group_rows + rows before k + ii.
template <class T>
T* pack(const T* source, const PeerTraffic& traffic, T* stream) {
  for (const ColumnGroup& group : traffic.groups) {
    const std::int64_t height = group_rows(group);
    std::int64_t position = 0;
    for (const Piece& piece : group.pieces) {
      copy_block(source + piece.offset, piece.row_stride, piece.col_stride, stream + position, 1,
                 height, piece.rows, group.cols, Conjugate::No);
      position += piece.rows;
    }
    stream += height * group.cols;
  }
  return stream;
}

template <class T>
const T* unpack(const T* stream, const PeerTraffic& traffic, T* target, Conjugate conjugate) {
  for (const ColumnGroup& group : traffic.groups) {
    const std::int64_t height = group_rows(group);
    std::int64_t position = 0;
    for (const Piece& piece : group.pieces) {
      copy_block(stream + position, 1, height, target + piece.offset, piece.row_stride,
                 piece.col_stride, piece.rows, group.cols, conjugate);
      position += piece.rows;
    }
    stream += height * group.cols;
  }
  return stream;
}

Conjugate conjugate_of(Op op) {
  return op == Op::ConjugateTranspose ? Conjugate::Yes : Conjugate::No;
}

// One rank's side of a round: buffers laid out peer after peer, matrix after matrix.
template <class T>
class Round {
 public:
  Round(const RedistributionPlan& plan, const std::vector<const T*>& sources,
        const std::vector<T*>& targets)
      : plan_(plan),
        sources_(sources),
        targets_(targets),
        send_(buffer_of<T>(plan.send_buffer(), plan.total_send())),
        receive_(buffer_of<T>(plan.receive_buffer(), plan.total_receive())) {
    const auto ranks = static_cast<std::size_t>(plan.num_ranks());
    send_offsets_.assign(ranks + 1, 0);
    receive_offsets_.assign(ranks + 1, 0);
    for (int p = 0; p < plan.num_ranks(); ++p) {
      send_offsets_[p + 1] = send_offsets_[p] + plan.send_count(p);
      receive_offsets_[p + 1] = receive_offsets_[p] + plan.receive_count(p);
    }
  }

  void pack_for(int peer) {
    T* stream = send_ + send_offsets_[peer];
    for (std::size_t m = 0; m < plan_.matrices().size(); ++m) {
      if (const PeerTraffic* traffic = find_peer(plan_.matrices()[m].sends, peer)) {
        stream = pack(sources_[m], *traffic, stream);
      }
    }
  }

  void unpack_from(int peer) {
    const T* stream = receive_ + receive_offsets_[peer];
    for (std::size_t m = 0; m < plan_.matrices().size(); ++m) {
      const MatrixTraffic& matrix = plan_.matrices()[m];
      if (const PeerTraffic* traffic = find_peer(matrix.receives, peer)) {
        stream = unpack(stream, *traffic, targets_[m], conjugate_of(matrix.op));
      }
    }
  }

  void copy_local() {
    for (std::size_t m = 0; m < plan_.matrices().size(); ++m) {
      const MatrixTraffic& matrix = plan_.matrices()[m];
      for (const LocalCopy& c : matrix.local) {
        copy_block(sources_[m] + c.source.offset, c.source.row_stride, c.source.col_stride,
                   targets_[m] + c.target.offset, c.target.row_stride, c.target.col_stride,
                   c.source.rows, c.cols, conjugate_of(matrix.op));
      }
    }
  }

  void point_to_point() {
    const MPI_Comm comm = plan_.comm();
    const int ranks = plan_.num_ranks(), me = plan_.my_rank();
    std::vector<MPI_Request> receives, sends;
    std::vector<int> receive_peer;
    for (int k = 1; k < ranks; ++k) {
      const int peer = (me + ranks - k) % ranks;
      if (plan_.receive_count(peer) == 0) continue;
      receives.emplace_back();
      receive_peer.push_back(peer);
      check_mpi(MPI_Irecv(receive_ + receive_offsets_[peer], mpi_count(plan_.receive_count(peer)),
                          mpi_type<T>(), peer, kRedistributionTag, comm, &receives.back()),
                "MPI_Irecv");
    }
    // Peers in a rotated order, so that not every rank packs for rank 0 first.
    for (int k = 1; k < ranks; ++k) {
      const int peer = (me + k) % ranks;
      if (plan_.send_count(peer) == 0) continue;
      pack_for(peer);
      sends.emplace_back();
      check_mpi(MPI_Isend(send_ + send_offsets_[peer], mpi_count(plan_.send_count(peer)),
                          mpi_type<T>(), peer, kRedistributionTag, comm, &sends.back()),
                "MPI_Isend");
    }
    copy_local();
    for (std::size_t done = 0; done < receives.size(); ++done) {
      int index = MPI_UNDEFINED;
      check_mpi(MPI_Waitany(static_cast<int>(receives.size()), receives.data(), &index,
                            MPI_STATUS_IGNORE),
                "MPI_Waitany");
      unpack_from(receive_peer[static_cast<std::size_t>(index)]);
    }
    check_mpi(MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE),
              "MPI_Waitall");
  }

  void all_to_all() {
    const int ranks = plan_.num_ranks();
    std::vector<int> send_counts(ranks), send_displs(ranks), receive_counts(ranks),
        receive_displs(ranks);
    for (int p = 0; p < ranks; ++p) {
      if (plan_.send_count(p) > 0) pack_for(p);
      send_counts[p] = mpi_count(plan_.send_count(p));
      send_displs[p] = mpi_count(send_offsets_[p]);
      receive_counts[p] = mpi_count(plan_.receive_count(p));
      receive_displs[p] = mpi_count(receive_offsets_[p]);
    }
    check_mpi(
        MPI_Alltoallv(send_, send_counts.data(), send_displs.data(), mpi_type<T>(), receive_,
                      receive_counts.data(), receive_displs.data(), mpi_type<T>(), plan_.comm()),
        "MPI_Alltoallv");
    copy_local();
    for (int p = 0; p < ranks; ++p) {
      if (plan_.receive_count(p) > 0) unpack_from(p);
    }
  }

 private:
  const RedistributionPlan& plan_;
  const std::vector<const T*>& sources_;
  const std::vector<T*>& targets_;
  T* send_;
  T* receive_;
  std::vector<std::int64_t> send_offsets_, receive_offsets_;
};

}  // namespace

template <class T>
void redistribute(const RedistributionPlan& plan, const std::vector<const T*>& sources,
                  const std::vector<T*>& targets, Exchange exchange) {
  const std::size_t count = plan.matrices().size();
  if (sources.size() != count || targets.size() != count) {
    throw InvalidArgument("hetscal: redistribution of " + std::to_string(count) +
                          " matrices given " + std::to_string(sources.size()) + " sources and " +
                          std::to_string(targets.size()) + " targets");
  }
  Round<T> round(plan, sources, targets);
  if (exchange == Exchange::Alltoallv) {
    round.all_to_all();
  } else {
    round.point_to_point();
  }
}

template <class T>
void reserve_buffers(const RedistributionPlan& plan) {
  buffer_of<T>(plan.send_buffer(), plan.total_send());
  buffer_of<T>(plan.receive_buffer(), plan.total_receive());
}

template void reserve_buffers<float>(const RedistributionPlan&);
template void reserve_buffers<double>(const RedistributionPlan&);
template void reserve_buffers<std::complex<float>>(const RedistributionPlan&);
template void reserve_buffers<std::complex<double>>(const RedistributionPlan&);

template void redistribute<float>(const RedistributionPlan&, const std::vector<const float*>&,
                                  const std::vector<float*>&, Exchange);
template void redistribute<double>(const RedistributionPlan&, const std::vector<const double*>&,
                                   const std::vector<double*>&, Exchange);
template void redistribute<std::complex<float>>(const RedistributionPlan&,
                                                const std::vector<const std::complex<float>*>&,
                                                const std::vector<std::complex<float>*>&, Exchange);
template void redistribute<std::complex<double>>(const RedistributionPlan&,
                                                 const std::vector<const std::complex<double>*>&,
                                                 const std::vector<std::complex<double>*>&,
                                                 Exchange);

}  // namespace hetscal::mpi
