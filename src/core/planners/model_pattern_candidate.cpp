// Pattern candidates for the time model (declared in model_candidates.hpp).
#include <sstream>

#include "core/common/error.hpp"
#include "core/planners/model_candidates.hpp"

namespace hetscal::core {

Candidate pattern_candidate(std::string label, std::size_t tile, const Pattern& pattern,
                            const std::vector<std::size_t>& node_processor) {
  if (node_processor.size() != static_cast<std::size_t>(pattern.num_nodes())) {
    std::ostringstream msg;
    msg << "pattern_candidate '" << label << "': " << node_processor.size()
        << " processors for a pattern of " << pattern.num_nodes() << " nodes";
    throw InvalidArgument(msg.str());
  }
  auto cells = pattern.cells_per_node();  // counts the diagonal cells given so far as well
  Candidate c;
  c.kind = CandidateKind::Pattern;
  c.label = std::move(label);
  c.tile = tile;
  c.rows = static_cast<std::size_t>(pattern.rows());
  c.cols = static_cast<std::size_t>(pattern.cols());
  c.owner.reserve(c.rows * c.cols);
  for (int i = 0; i < pattern.rows(); ++i) {
    for (int j = 0; j < pattern.cols(); ++j) {
      int node = pattern.at(i, j);
      if (node == Pattern::kUnassigned) {
        // A diagonal cell of a square pattern: any node of colrow i keeps the cost; take the
        // one with the fewest cells (the replica-by-replica rule of pattern_resolve, once).
        const auto colrow = pattern.colrow_nodes(i);
        node = colrow.front();
        for (int candidate : colrow)
          if (cells[static_cast<std::size_t>(candidate)] < cells[static_cast<std::size_t>(node)])
            node = candidate;
        ++cells[static_cast<std::size_t>(node)];  // else one node may take every diagonal cell
      }
      c.owner.push_back(node_processor[static_cast<std::size_t>(node)]);
    }
  }
  return c;
}

}  // namespace hetscal::core
