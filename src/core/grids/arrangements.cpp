#include "core/grids/arrangements.hpp"

#include <limits>
#include <map>
#include <sstream>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

void require_grid(std::size_t p, std::size_t q) {
  if (p == 0 || q == 0) {
    std::ostringstream msg;
    msg << "grid " << p << "x" << q << ": both dimensions must be >= 1";
    throw InvalidArgument(msg.str());
  }
}

/// Appendix 7.1's generate_arrangement_rec: `filled[i]` is the length a_i of grid row i;
/// the next processor (rank `next`) may end row i if the row is not full and (i = 0 or the
/// row above is longer), which keeps ranks increasing down every column.
class TableauGenerator {
 public:
  TableauGenerator(std::size_t p, std::size_t q, const ArrangementVisitor& visit)
      : p_(p), q_(q), visit_(visit), filled_(p, 0), rank_at_(p * q, 0) {}

  void run() { place(0); }

 private:
  void place(std::size_t next) {
    if (next == p_ * q_) {  // the appendix writes "deep = p + q": a slip for p × q
      visit_(rank_at_);
      return;
    }
    for (std::size_t i = 0; i < p_; ++i) {
      if (filled_[i] == q_ || (i > 0 && filled_[i - 1] <= filled_[i])) continue;
      rank_at_[i * q_ + filled_[i]] = next;
      ++filled_[i];
      place(next + 1);
      --filled_[i];
    }
  }

  std::size_t p_, q_;
  const ArrangementVisitor& visit_;
  std::vector<std::size_t> filled_;
  std::vector<std::size_t> rank_at_;
};

/// Adds `sign` × the prime factorisation of n to `exponents`.
void add_factors(std::uint64_t n, int sign, std::map<std::uint64_t, int>& exponents) {
  for (std::uint64_t f = 2; f * f <= n; ++f) {
    while (n % f == 0) {
      exponents[f] += sign;
      n /= f;
    }
  }
  if (n > 1) exponents[n] += sign;
}

}  // namespace

void for_each_nondecreasing_arrangement(std::size_t p, std::size_t q,
                                        const ArrangementVisitor& visit) {
  require_grid(p, q);
  TableauGenerator(p, q, visit).run();
}

std::uint64_t count_nondecreasing_arrangements(std::size_t p, std::size_t q) {
  std::uint64_t count = 0;
  for_each_nondecreasing_arrangement(p, q, [&count](const std::vector<std::size_t>&) { ++count; });
  return count;
}

std::uint64_t hook_length_count(std::size_t p, std::size_t q) {
  require_grid(p, q);
  // (pq)! / Π hooks, where the cell (i, j) (0-based) of a p×q rectangle has hook length
  // (p - i) + (q - j) - 1; this product equals Π_{i=q}^{q+p-1} i! / Π_{i=1}^{p-1} i!.
  std::map<std::uint64_t, int> exponents;
  for (std::uint64_t n = 2; n <= p * q; ++n) add_factors(n, +1, exponents);
  for (std::size_t i = 0; i < p; ++i)
    for (std::size_t j = 0; j < q; ++j) add_factors((p - i) + (q - j) - 1, -1, exponents);
  std::uint64_t count = 1;
  for (const auto& [prime, exponent] : exponents) {
    for (int e = 0; e < exponent; ++e) {
      if (count > std::numeric_limits<std::uint64_t>::max() / prime) {
        std::ostringstream msg;
        msg << "hook_length_count(" << p << ", " << q << ") does not fit 64 bits";
        throw Error(msg.str());
      }
      count *= prime;
    }
  }
  return count;
}

}  // namespace hetscal::core
