#include "mpi/redistribute.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "core/common/error.hpp"
#include "mpi/agreement.hpp"
#include "mpi/copy_block.hpp"
#include "mpi/message_tags.hpp"
#include "mpi/mpi_error.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::mpi {
namespace {

using detail::Conjugate;
using detail::copy_block;

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

Conjugate conjugate_of(Op op) {
  return op == Op::ConjugateTranspose ? Conjugate::Yes : Conjugate::No;
}

// Columns [first, first + count) of one group of one matrix's traffic with a peer; each
// column is `height` consecutive elements of the message.
struct ColumnRun {
  std::size_t matrix = 0;
  const ColumnGroup* group = nullptr;
  std::int64_t first = 0, count = 0, height = 0;
};

// One message: consecutive columns of the traffic with one peer, in message order.
struct Message {
  std::vector<ColumnRun> runs;
  std::int64_t elements = 0;
};

// Appends `run` to the last message, or to a new one when the message would exceed `limit`
// elements (a first column never opens a new message, so a taller one travels alone).
// Returns the columns taken.
std::int64_t append_columns(std::vector<Message>& messages, ColumnRun run, std::int64_t limit) {
  if (messages.back().elements > 0 && messages.back().elements + run.height > limit) {
    messages.emplace_back();
  }
  Message& message = messages.back();
  const std::int64_t room = message.elements == 0 ? std::max<std::int64_t>(1, limit / run.height)
                                                  : (limit - message.elements) / run.height;
  run.count = std::min(run.count, room);
  message.runs.push_back(run);
  message.elements += run.count * run.height;
  return run.count;
}

// The traffic with `peer` (what this rank sends, or receives), matrix after matrix, cut into
// messages of at most `limit` elements at column boundaries. Sender and receiver meet the
// same column heights in the same order (the plan's message order; merged groups have
// equal heights), so both cut at the same places without telling each other.
std::vector<Message> messages_with(const RedistributionPlan& plan, int peer, bool sends,
                                   std::int64_t limit) {
  std::vector<Message> messages(1);
  for (std::size_t m = 0; m < plan.matrices().size(); ++m) {
    const MatrixTraffic& matrix = plan.matrices()[m];
    const PeerTraffic* traffic = find_peer(sends ? matrix.sends : matrix.receives, peer);
    if (traffic == nullptr) continue;
    for (const ColumnGroup& group : traffic->groups) {
      const std::int64_t height = group_rows(group);
      for (std::int64_t first = 0; height > 0 && first < group.cols;) {
        first += append_columns(messages, {m, &group, first, group.cols - first, height}, limit);
      }
    }
  }
  if (messages.back().elements == 0) messages.pop_back();
  return messages;
}

// One direction of the exchange with one peer: its messages and their buffer slots (each
// as large as the largest message).
struct Direction {
  std::vector<Message> messages;
  std::int64_t slot_elements = 0;
  std::int64_t first_slot = 0;  // offset of the first slot in the direction's buffer
  int slots = 0;
  std::size_t next = 0;  // next message to start
};

// The messages of one round with each peer that has traffic, and where their buffers sit.
struct RoundLayout {
  struct Peer {
    int rank = 0;
    Direction send, receive;
  };
  std::vector<Peer> peers;  // rotated order from this rank + 1, so not all start with rank 0
  std::int64_t send_elements = 0, receive_elements = 0;
};

void place_slots(Direction& d, int slots_per_peer, std::int64_t& buffer_elements) {
  for (const Message& message : d.messages)
    d.slot_elements = std::max(d.slot_elements, message.elements);
  d.slots = static_cast<int>(std::min<std::size_t>(d.messages.size(), slots_per_peer));
  d.first_slot = buffer_elements;
  buffer_elements += d.slots * d.slot_elements;
}

// `limit` elements per message, `slots_per_peer` buffers per peer and direction.
RoundLayout round_layout(const RedistributionPlan& plan, std::int64_t limit, int slots_per_peer) {
  RoundLayout layout;
  const int ranks = plan.num_ranks(), me = plan.my_rank();
  for (int k = 1; k < ranks; ++k) {
    const int peer = (me + k) % ranks;
    if (plan.send_count(peer) == 0 && plan.receive_count(peer) == 0) continue;
    RoundLayout::Peer p;
    p.rank = peer;
    p.send.messages = messages_with(plan, peer, true, limit);
    p.receive.messages = messages_with(plan, peer, false, limit);
    place_slots(p.send, slots_per_peer, layout.send_elements);
    place_slots(p.receive, slots_per_peer, layout.receive_elements);
    layout.peers.push_back(std::move(p));
  }
  return layout;
}

// Two messages in flight per peer and direction: one travels while the other is packed or
// unpacked.
constexpr int kSlotsInFlight = 2;

template <class T>
RoundLayout layout_for(const RedistributionPlan& plan, Exchange exchange) {
  if (exchange == Exchange::Alltoallv) {
    return round_layout(plan, std::numeric_limits<std::int64_t>::max(), 1);
  }
  const auto limit =
      static_cast<std::int64_t>(std::max<std::size_t>(1, plan.message_bytes() / sizeof(T)));
  return round_layout(plan, limit, kSlotsInFlight);
}

template <class T>
void pack(const T* const* sources, const Message& message, T* stream) {
  for (const ColumnRun& run : message.runs) {
    std::int64_t position = 0;
    for (const Piece& piece : run.group->pieces) {
      copy_block(sources[run.matrix] + piece.offset + run.first * piece.col_stride,
                 piece.row_stride, piece.col_stride, stream + position, 1, run.height, piece.rows,
                 run.count, Conjugate::No);
      position += piece.rows;
    }
    stream += run.height * run.count;
  }
}

template <class T>
void unpack(const T* stream, const Message& message, const RedistributionPlan& plan, T* const* targets) {
  for (const ColumnRun& run : message.runs) {
    const Conjugate conjugate = conjugate_of(plan.matrices()[run.matrix].op);
    std::int64_t position = 0;
    for (const Piece& piece : run.group->pieces) {
      copy_block(stream + position, 1, run.height,
                 targets[run.matrix] + piece.offset + run.first * piece.col_stride,
                 piece.row_stride, piece.col_stride, piece.rows, run.count, conjugate);
      position += piece.rows;
    }
    stream += run.height * run.count;
  }
}

// One rank's side of a round. Everything it allocates (the round's layout, the buffers when
// not reserved, the requests and counts) is allocated on construction, which redistribute
// agrees on before any message: the exchange itself allocates nothing.
template <class T>
class Round {
 public:
  Round(const RedistributionPlan& plan, const T* const* sources, T* const* targets, Exchange exchange)
      : plan_(plan),
        sources_(sources),
        targets_(targets),
        layout_(layout_for<T>(plan, exchange)),
        send_(buffer_of<T>(plan.send_buffer(), layout_.send_elements)),
        receive_(buffer_of<T>(plan.receive_buffer(), layout_.receive_elements)) {
    if (exchange == Exchange::Alltoallv) {
      const auto ranks = static_cast<std::size_t>(plan_.num_ranks());
      send_counts_.assign(ranks, 0);
      send_displs_.assign(ranks, 0);
      receive_counts_.assign(ranks, 0);
      receive_displs_.assign(ranks, 0);
    } else {
      requests_.assign(layout_.peers.size() * kRequestsPerPeer, MPI_REQUEST_NULL);
      message_in_.assign(layout_.peers.size() * kRequestsPerPeer, 0);
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

  // Every peer's messages in turn through its slots: the first ones posted, the local copy
  // done while they travel, then each completed message makes room for the next one.
  void point_to_point() {
    const std::size_t peers = layout_.peers.size();
    for (std::size_t p = 0; p < peers; ++p) {
      for (int slot = 0; slot < layout_.peers[p].receive.slots; ++slot) start_receive(p, slot);
    }
    for (std::size_t p = 0; p < peers; ++p) {
      for (int slot = 0; slot < layout_.peers[p].send.slots; ++slot) start_send(p, slot);
    }
    copy_local();
    for (;;) {
      int index = MPI_UNDEFINED;
      check_mpi(MPI_Waitany(static_cast<int>(requests_.size()), requests_.data(), &index,
                            MPI_STATUS_IGNORE),
                "MPI_Waitany");
      if (index == MPI_UNDEFINED) break;
      const auto p = static_cast<std::size_t>(index / kRequestsPerPeer);
      const int slot = index % kSlotsInFlight;
      if (index % kRequestsPerPeer < kSlotsInFlight) {
        start_send(p, slot);
      } else {
        const Direction& d = layout_.peers[p].receive;
        unpack(receive_ + d.first_slot + slot * d.slot_elements,
               d.messages[message_in_[static_cast<std::size_t>(index)]], plan_, targets_);
        start_receive(p, slot);
      }
    }
  }

  void all_to_all() {
    std::vector<int>&send_counts = send_counts_, &send_displs = send_displs_, &receive_counts = receive_counts_,
                     &receive_displs = receive_displs_;
    for (const RoundLayout::Peer& p : layout_.peers) {
      const auto r = static_cast<std::size_t>(p.rank);
      if (!p.send.messages.empty()) {
        pack(sources_, p.send.messages[0], send_ + p.send.first_slot);
        send_counts[r] = mpi_count(p.send.messages[0].elements);
        send_displs[r] = mpi_count(p.send.first_slot);
      }
      if (!p.receive.messages.empty()) {
        receive_counts[r] = mpi_count(p.receive.messages[0].elements);
        receive_displs[r] = mpi_count(p.receive.first_slot);
      }
    }
    check_mpi(
        MPI_Alltoallv(send_, send_counts.data(), send_displs.data(), mpi_type<T>(), receive_,
                      receive_counts.data(), receive_displs.data(), mpi_type<T>(), plan_.comm()),
        "MPI_Alltoallv");
    copy_local();
    for (const RoundLayout::Peer& p : layout_.peers) {
      if (!p.receive.messages.empty()) {
        unpack(receive_ + p.receive.first_slot, p.receive.messages[0], plan_, targets_);
      }
    }
  }

 private:
  // Requests of peer p: its send slots, then its receive slots.
  static constexpr int kRequestsPerPeer = 2 * kSlotsInFlight;

  void start_send(std::size_t p, int slot) {
    Direction& d = layout_.peers[p].send;
    if (d.next == d.messages.size()) return;
    const Message& message = d.messages[d.next++];
    T* buffer = send_ + d.first_slot + slot * d.slot_elements;
    pack(sources_, message, buffer);
    check_mpi(MPI_Isend(buffer, mpi_count(message.elements), mpi_type<T>(), layout_.peers[p].rank,
                        tag::kRedistribution, plan_.comm(), &request(p, slot)),
              "MPI_Isend");
  }

  void start_receive(std::size_t p, int slot) {
    Direction& d = layout_.peers[p].receive;
    if (d.next == d.messages.size()) return;
    const std::size_t k = d.next++;
    message_in_[p * kRequestsPerPeer + kSlotsInFlight + static_cast<std::size_t>(slot)] = k;
    check_mpi(MPI_Irecv(receive_ + d.first_slot + slot * d.slot_elements,
                        mpi_count(d.messages[k].elements), mpi_type<T>(), layout_.peers[p].rank,
                        tag::kRedistribution, plan_.comm(), &request(p, kSlotsInFlight + slot)),
              "MPI_Irecv");
  }

  MPI_Request& request(std::size_t p, int index) {
    return requests_[p * kRequestsPerPeer + static_cast<std::size_t>(index)];
  }

  const RedistributionPlan& plan_;
  const T* const* sources_;
  T* const* targets_;
  RoundLayout layout_;
  T* send_;
  T* receive_;
  std::vector<MPI_Request> requests_;
  std::vector<std::size_t> message_in_;  // per receive request: the message its slot holds
  std::vector<int> send_counts_, send_displs_, receive_counts_, receive_displs_;  // all-to-all
};

// The round made on every rank, agreed (a rank short of memory throws the same StageFailed
// as the others), then run.
template <class T>
void run_round(const RedistributionPlan& plan, const T* const* sources, T* const* targets, Exchange exchange) {
  std::optional<Round<T>> round;
  run_agreed(plan.comm(), "redistribution", [&] { round.emplace(plan, sources, targets, exchange); });
  if (exchange == Exchange::Alltoallv) {
    round->all_to_all();
  } else {
    round->point_to_point();
  }
}

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
  run_round<T>(plan, sources.data(), targets.data(), exchange);
}

template <class T>
void redistribute(const RedistributionPlan& plan, const T* source, T* target, Exchange exchange) {
  if (plan.matrices().size() != 1) {
    throw InvalidArgument("hetscal: redistribution of " + std::to_string(plan.matrices().size()) +
                          " matrices given one source and one target");
  }
  run_round<T>(plan, &source, &target, exchange);
}

template <class T>
void reserve_buffers(const RedistributionPlan& plan, Exchange exchange) {
  const RoundLayout layout = layout_for<T>(plan, exchange);
  buffer_of<T>(plan.send_buffer(), layout.send_elements);
  buffer_of<T>(plan.receive_buffer(), layout.receive_elements);
}

HETSCAL_INSTANTIATE_FOR_EACH_SCALAR(HETSCAL_REDISTRIBUTE_INSTANCES)

}  // namespace hetscal::mpi
