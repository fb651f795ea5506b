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
