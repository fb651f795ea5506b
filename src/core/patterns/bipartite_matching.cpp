#include "core/patterns/bipartite_matching.hpp"

#include <algorithm>
#include <limits>
#include <queue>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

constexpr int kInfinity = std::numeric_limits<int>::max();

/// State of one Hopcroft–Karp run: BFS layers from the free left vertices, then vertex-disjoint
/// shortest augmenting paths along those layers.
class HopcroftKarp {
 public:
  HopcroftKarp(const std::vector<std::vector<int>>& adjacent, int right)
      : adjacent_(adjacent),
        match_left_(adjacent.size(), BipartiteGraph::kUnmatched),
        match_right_(right, BipartiteGraph::kUnmatched),
        layer_(adjacent.size(), kInfinity),
        next_edge_(adjacent.size(), 0) {}

  std::vector<int> run() {
    while (build_layers()) {
      std::fill(next_edge_.begin(), next_edge_.end(), 0);
      for (std::size_t l = 0; l < adjacent_.size(); ++l) {
        if (match_left_[l] == BipartiteGraph::kUnmatched) augment(static_cast<int>(l));
      }
    }
    return match_left_;
  }

 private:
  /// True when some augmenting path exists.
  bool build_layers() {
    std::queue<int> queue;
    for (std::size_t l = 0; l < adjacent_.size(); ++l) {
      layer_[l] = match_left_[l] == BipartiteGraph::kUnmatched ? 0 : kInfinity;
      if (layer_[l] == 0) queue.push(static_cast<int>(l));
    }
    bool found = false;
    while (!queue.empty()) {
      const int l = queue.front();
      queue.pop();
      for (int r : adjacent_[l]) {
        const int partner = match_right_[r];
        if (partner == BipartiteGraph::kUnmatched) {
          found = true;
        } else if (layer_[partner] == kInfinity) {
          layer_[partner] = layer_[l] + 1;
          queue.push(partner);
        }
      }
    }
    return found;
  }

  /// Iterative DFS along the layers from free left vertex `root`; flips the path if found.
  bool augment(int root) {
    std::vector<int> path{root};
    while (!path.empty()) {
      const int l = path.back();
      bool advanced = false;
      while (next_edge_[l] < adjacent_[l].size()) {
        const int r = adjacent_[l][next_edge_[l]++];
        const int partner = match_right_[r];
        if (partner == BipartiteGraph::kUnmatched) {
          flip(path, r);
          return true;
        }
        if (layer_[partner] == layer_[l] + 1) {
          path.push_back(partner);
          advanced = true;
          break;
        }
      }
      if (!advanced) {
        layer_[l] = kInfinity;  // dead end for this phase
        path.pop_back();
      }
    }
    return false;
  }

  /// path[k] is re-matched to the right vertex path[k+1] was matched to; the last to `free_right`.
  void flip(const std::vector<int>& path, int free_right) {
    int r = free_right;
    for (std::size_t k = path.size(); k-- > 0;) {
      const int l = path[k];
      const int previous = match_left_[l];
      match_left_[l] = r;
      match_right_[r] = l;
      r = previous;
    }
  }

  const std::vector<std::vector<int>>& adjacent_;
  std::vector<int> match_left_, match_right_, layer_;
  std::vector<std::size_t> next_edge_;
};

}  // namespace

BipartiteGraph::BipartiteGraph(int left, int right) : right_(right) {
  if (left < 0 || right < 0) {
    throw InvalidArgument("BipartiteGraph: sizes " + std::to_string(left) + " and " +
                          std::to_string(right) + " must be >= 0");
  }
  adjacent_.resize(static_cast<std::size_t>(left));
}

void BipartiteGraph::add_edge(int left_vertex, int right_vertex) {
  if (left_vertex < 0 || left_vertex >= left_size() || right_vertex < 0 || right_vertex >= right_) {
    throw InvalidArgument("BipartiteGraph: edge (" + std::to_string(left_vertex) + "," +
                          std::to_string(right_vertex) + ") is out of range");
  }
  adjacent_[left_vertex].push_back(right_vertex);
}

std::vector<int> BipartiteGraph::maximum_matching() const {
  return HopcroftKarp(adjacent_, right_).run();
}

}  // namespace hetscal::core

namespace hetscal::core {
namespace {

/// Per left vertex, its nodes in edge order: those of vertex l are nodes[first[l] … first[l+1]).
struct NodeLists {
  std::vector<std::size_t> first;
  std::vector<int> nodes;
  std::size_t size() const { return first.size() - 1; }  ///< left vertices
};

/// Hopcroft–Karp on a SlotBipartiteGraph, step for step the run HopcroftKarp makes on the
/// expanded graph (same layers, same edges tried in the same order, same paths), but a node's
/// slots are tried as bit sets: the first slot at or after the edge pointer that is free or
/// whose partner lies on the next layer is found a word at a time.
class SlotHopcroftKarp {
 public:
  SlotHopcroftKarp(const NodeLists& nodes_of, const std::vector<int>& first_slot)
      : nodes_of_(nodes_of),
        first_slot_(first_slot),
        match_left_(nodes_of.size(), BipartiteGraph::kUnmatched),
        match_right_(static_cast<std::size_t>(first_slot.back()), BipartiteGraph::kUnmatched),
        layer_(nodes_of.size(), kInfinity),
        expanded_(first_slot.size() - 1, 0),
        next_(nodes_of.size()) {
    const std::size_t nodes = first_slot.size() - 1;
    first_word_.assign(nodes + 1, 0);
    free_count_.assign(nodes, 0);
    for (std::size_t n = 0; n < nodes; ++n) {
      first_word_[n + 1] = first_word_[n] + (slots(n) + 63) / 64;
      free_count_[n] = slots(n);
      node_of_.insert(node_of_.end(), slots(n), n);
    }
    free_.assign(first_word_.back(), 0);
    for (std::size_t n = 0; n < nodes; ++n)
      for (std::size_t s = 0; s < slots(n); ++s) set_bit(free_, n, s);
  }

  std::vector<int> run() {
    while (build_layers()) {
      index_partners_by_layer();
      std::fill(next_.begin(), next_.end(), Pointer{});
      for (std::size_t l = 0; l < nodes_of_.size(); ++l) {
        if (match_left_[l] == BipartiteGraph::kUnmatched) augment(static_cast<int>(l));
      }
    }
    return match_left_;
  }

 private:
  /// Where a left vertex's edge scan stands: its node_index-th node, from slot `slot` on.
  struct Pointer {
    std::size_t node_index = 0;
    std::size_t slot = 0;
  };
  static constexpr int kUnusedLayer = -1;  ///< a LayerSlots kept for a later phase
  /// The slots of one node whose partner lies on one layer.
  struct LayerSlots {
    int layer;
    std::vector<std::uint64_t> bits;
  };

  std::size_t slots(std::size_t node) const {
    return static_cast<std::size_t>(first_slot_[node + 1] - first_slot_[node]);
  }
  std::size_t node_of(int slot) const { return node_of_[static_cast<std::size_t>(slot)]; }
  void set_bit(std::vector<std::uint64_t>& bits, std::size_t node, std::size_t s) const {
    bits[first_word_[node] + s / 64] |= std::uint64_t{1} << (s % 64);
  }
  static void clear_bit(std::vector<std::uint64_t>& bits, std::size_t word, std::size_t s) {
    bits[word + s / 64] &= ~(std::uint64_t{1} << (s % 64));
  }

  /// True when some augmenting path exists; the layers are the BFS distances from the free
  /// left vertices, as HopcroftKarp's (a node's partners are layered by the first vertex that
  /// reaches it, which later ones would find layered already).
  bool build_layers() {
    std::queue<int> queue;
    for (std::size_t l = 0; l < nodes_of_.size(); ++l) {
      layer_[l] = match_left_[l] == BipartiteGraph::kUnmatched ? 0 : kInfinity;
      if (layer_[l] == 0) queue.push(static_cast<int>(l));
    }
    std::fill(expanded_.begin(), expanded_.end(), 0);
    bool found = false;
    while (!queue.empty()) {
      const int l = queue.front();
      queue.pop();
      for (std::size_t e = nodes_of_.first[static_cast<std::size_t>(l)]; e < nodes_of_.first[static_cast<std::size_t>(l) + 1]; ++e) {
        const auto n = static_cast<std::size_t>(nodes_of_.nodes[e]);
        if (free_count_[n] > 0) found = true;
        if (expanded_[n]) continue;
        expanded_[n] = 1;
        for (int s = first_slot_[n]; s < first_slot_[n + 1]; ++s) {
          const int partner = match_right_[static_cast<std::size_t>(s)];
          if (partner != BipartiteGraph::kUnmatched && layer_[static_cast<std::size_t>(partner)] == kInfinity) {
            layer_[static_cast<std::size_t>(partner)] = layer_[static_cast<std::size_t>(l)] + 1;
            queue.push(partner);
          }
        }
      }
    }
    return found;
  }

  /// Per node, its matched slots grouped by their partner's layer (finite ones only); the
  /// groups' storage is kept from phase to phase.
  void index_partners_by_layer() {
    by_layer_.resize(first_slot_.size() - 1);
    for (std::vector<LayerSlots>& groups : by_layer_)
      for (LayerSlots& group : groups) {
        group.layer = kUnusedLayer;
        std::fill(group.bits.begin(), group.bits.end(), 0);
      }
    for (std::size_t s = 0; s < match_right_.size(); ++s) {
      const int partner = match_right_[s];
      if (partner != BipartiteGraph::kUnmatched) mark(static_cast<int>(s), layer_[static_cast<std::size_t>(partner)]);
    }
  }

  /// A group of node's for `layer`, empty: an unused one reclaimed, or a new one.
  std::vector<std::uint64_t>& new_layer(std::size_t node, int layer) {
    for (LayerSlots& group : by_layer_[node])
      if (group.layer == kUnusedLayer) {
        group.layer = layer;
        return group.bits;
      }
    by_layer_[node].push_back({layer, std::vector<std::uint64_t>(first_word_[node + 1] - first_word_[node], 0)});
    return by_layer_[node].back().bits;
  }

  std::vector<std::uint64_t>* slots_on_layer(std::size_t node, int layer) {
    for (LayerSlots& group : by_layer_[node])
      if (group.layer == layer) return &group.bits;
    return nullptr;
  }

  /// Records that slot's partner lies on `layer` (nothing for an infinite one).
  void mark(int slot, int layer) {
    if (layer == kInfinity) return;
    const std::size_t n = node_of(slot);
    std::vector<std::uint64_t>* bits = slots_on_layer(n, layer);
    if (!bits) bits = &new_layer(n, layer);
    const auto s = static_cast<std::size_t>(slot - first_slot_[n]);
    (*bits)[s / 64] |= std::uint64_t{1} << (s % 64);
  }

  /// Forgets that slot's partner lies on `layer`.
  void unmark(int slot, int layer) {
    if (layer == kInfinity) return;
    const std::size_t n = node_of(slot);
    if (std::vector<std::uint64_t>* bits = slots_on_layer(n, layer)) clear_bit(*bits, 0, static_cast<std::size_t>(slot - first_slot_[n]));
  }

  /// The first slot of `node` at or after `from` that is free or whose partner lies on
  /// `layer`; slots(node) if none.
  std::size_t first_wanted(std::size_t node, std::size_t from, int layer) {
    const std::vector<std::uint64_t>* on_layer = slots_on_layer(node, layer);
    const std::size_t words = first_word_[node + 1] - first_word_[node];
    for (std::size_t w = from / 64; w < words; ++w) {
      std::uint64_t bits = free_[first_word_[node] + w] | (on_layer ? (*on_layer)[w] : 0);
      if (w == from / 64) bits &= ~std::uint64_t{0} << (from % 64);
      if (bits) return std::min(slots(node), w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits)));
    }
    return slots(node);
  }

  /// HopcroftKarp::augment: the next edge of the vertex on top of the path is its pointer's
  /// first wanted slot (the slots skipped before it are neither free nor on the next layer).
  bool augment(int root) {
    std::vector<int>& path = path_;  // kept from root to root: one allocation per matching
    path.assign(1, root);
    while (!path.empty()) {
      const auto l = static_cast<std::size_t>(path.back());
      bool advanced = false;
      Pointer& at = next_[l];
      const std::size_t degree = nodes_of_.first[l + 1] - nodes_of_.first[l];
      while (at.node_index < degree) {
        const auto n = static_cast<std::size_t>(nodes_of_.nodes[nodes_of_.first[l] + at.node_index]);
        const std::size_t s = first_wanted(n, at.slot, layer_[l] + 1);
        if (s == slots(n)) {
          ++at.node_index;
          at.slot = 0;
          continue;
        }
        at.slot = s + 1;
        const int slot = first_slot_[n] + static_cast<int>(s);
        const int partner = match_right_[static_cast<std::size_t>(slot)];
        if (partner == BipartiteGraph::kUnmatched) {
          flip(path, slot);
          return true;
        }
        path.push_back(partner);
        advanced = true;
        break;
      }
      if (!advanced) {
        // Dead end for this phase; no longer on its layer (a descent into it would come back
        // at once, its edges spent: unmarked, it is skipped as HopcroftKarp skips it).
        if (match_left_[l] != BipartiteGraph::kUnmatched) unmark(match_left_[l], layer_[l]);
        layer_[l] = kInfinity;
        path.pop_back();
      }
    }
    return false;
  }

  /// HopcroftKarp::flip, keeping the free slots and the layer index up to date.
  void flip(const std::vector<int>& path, int free_slot) {
    const std::size_t n = node_of(free_slot);
    clear_bit(free_, first_word_[n], static_cast<std::size_t>(free_slot - first_slot_[n]));
    --free_count_[n];
    int slot = free_slot;
    for (std::size_t k = path.size(); k-- > 0;) {
      const auto l = static_cast<std::size_t>(path[k]);
      const int previous = match_left_[l];
      const int before = match_right_[static_cast<std::size_t>(slot)];
      if (before != BipartiteGraph::kUnmatched) unmark(slot, layer_[static_cast<std::size_t>(before)]);
      match_left_[l] = slot;
      match_right_[static_cast<std::size_t>(slot)] = static_cast<int>(l);
      mark(slot, layer_[l]);
      slot = previous;
    }
  }

  const NodeLists& nodes_of_;
  const std::vector<int>& first_slot_;
  std::vector<int> match_left_, match_right_, layer_;
  std::vector<char> expanded_;          ///< per node: its partners layered in this BFS
  std::vector<Pointer> next_;           ///< per left vertex: its edge scan in this phase
  std::vector<std::size_t> first_word_; ///< per node, its first word in free_ (then the total)
  std::vector<std::uint64_t> free_;     ///< per node, its free slots
  std::vector<std::size_t> free_count_; ///< per node, how many
  std::vector<std::size_t> node_of_;    ///< per slot, its node
  std::vector<std::vector<LayerSlots>> by_layer_;  ///< per node, matched slots by partner layer
  std::vector<int> path_;                          ///< augment's path
};

}  // namespace

SlotBipartiteGraph::SlotBipartiteGraph(int left, std::vector<int> capacity) {
  if (left < 0) throw InvalidArgument("SlotBipartiteGraph: " + std::to_string(left) + " left vertices");
  first_slot_.assign(capacity.size() + 1, 0);
  for (std::size_t n = 0; n < capacity.size(); ++n) {
    if (capacity[n] < 0)
      throw InvalidArgument("SlotBipartiteGraph: node " + std::to_string(n) + " has capacity " +
                            std::to_string(capacity[n]));
    first_slot_[n + 1] = first_slot_[n] + capacity[n];
  }
  left_ = left;
}

void SlotBipartiteGraph::add_edge(int left_vertex, int node) {
  if (left_vertex < 0 || left_vertex >= left_size() || node < 0 || node + 1 >= static_cast<int>(first_slot_.size()))
    throw InvalidArgument("SlotBipartiteGraph: edge (" + std::to_string(left_vertex) + "," + std::to_string(node) +
                          ") is out of range");
  edges_.emplace_back(left_vertex, node);
}

std::vector<int> SlotBipartiteGraph::maximum_matching() const {
  // Per left vertex its nodes in edge order (a stable counting sort): one array, not a vector
  // per cell.
  NodeLists lists;
  lists.first.assign(static_cast<std::size_t>(left_) + 1, 0);
  for (const auto& [l, n] : edges_) ++lists.first[static_cast<std::size_t>(l) + 1];
  for (std::size_t l = 0; l < static_cast<std::size_t>(left_); ++l) lists.first[l + 1] += lists.first[l];
  lists.nodes.resize(edges_.size());
  std::vector<std::size_t> next(lists.first.begin(), lists.first.end() - 1);
  for (const auto& [l, n] : edges_) lists.nodes[next[static_cast<std::size_t>(l)]++] = n;
  return SlotHopcroftKarp(lists, first_slot_).run();
}

}  // namespace hetscal::core

namespace hetscal::core {
namespace {

/// Residual network source -> left -> right -> sink for max_transport.
class ResidualNetwork {
 public:
  explicit ResidualNetwork(int vertices) : out_(vertices) {}

  void add_arc(int from, int to, std::int64_t capacity) {
    out_[from].push_back(static_cast<int>(arcs_.size()));
    arcs_.push_back({to, capacity});
    out_[to].push_back(static_cast<int>(arcs_.size()));
    arcs_.push_back({from, 0});
  }

  std::int64_t max_flow(int source, int sink) {
    std::int64_t total = 0;
    std::vector<int> via(out_.size());
    for (;;) {
      std::fill(via.begin(), via.end(), -1);
      std::queue<int> queue;
      queue.push(source);
      while (!queue.empty() && via[sink] < 0) {
        const int v = queue.front();
        queue.pop();
        for (int a : out_[v]) {
          const int w = arcs_[a].to;
          if (arcs_[a].capacity > 0 && via[w] < 0 && w != source) {
            via[w] = a;
            queue.push(w);
          }
        }
      }
      if (via[sink] < 0) return total;
      std::int64_t push = std::numeric_limits<std::int64_t>::max();
      for (int v = sink; v != source; v = arcs_[via[v] ^ 1].to) {
        push = std::min(push, arcs_[via[v]].capacity);
      }
      for (int v = sink; v != source; v = arcs_[via[v] ^ 1].to) {
        arcs_[via[v]].capacity -= push;
        arcs_[via[v] ^ 1].capacity += push;
      }
      total += push;
    }
  }

 private:
  struct Arc {
    int to;
    std::int64_t capacity;
  };
  std::vector<std::vector<int>> out_;
  std::vector<Arc> arcs_;
};

void require_amounts(const std::vector<std::int64_t>& amounts, int expected, const char* what) {
  if (static_cast<int>(amounts.size()) != expected) {
    throw InvalidArgument(std::string("max_transport: ") + what + " has " +
                          std::to_string(amounts.size()) + " entries, expected " +
                          std::to_string(expected));
  }
  for (std::int64_t amount : amounts) {
    if (amount < 0) {
      throw InvalidArgument(std::string("max_transport: ") + what + " holds " +
                            std::to_string(amount) + " < 0");
    }
  }
}

}  // namespace

std::int64_t BipartiteGraph::max_transport(const std::vector<std::int64_t>& supply,
                                           const std::vector<std::int64_t>& demand) const {
  require_amounts(supply, left_size(), "supply");
  require_amounts(demand, right_, "demand");
  const int source = left_size() + right_;
  const int sink = source + 1;
  ResidualNetwork network(sink + 1);
  std::int64_t unbounded = 0;
  for (std::int64_t s : supply) unbounded += s;
  for (int l = 0; l < left_size(); ++l) {
    network.add_arc(source, l, supply[l]);
    for (int r : adjacent_[l]) network.add_arc(l, left_size() + r, unbounded);
  }
  for (int r = 0; r < right_; ++r) network.add_arc(left_size() + r, sink, demand[r]);
  return network.max_flow(source, sink);
}

}  // namespace hetscal::core
