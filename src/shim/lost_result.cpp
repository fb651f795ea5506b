#include "shim/lost_result.hpp"

#include <cstdio>

#include "shim/pblas_symbols.hpp"

namespace hetscal::shim {

void abort_lost_result(int context, const char* routine) {
  std::fprintf(stderr, "hetscal: %s: writing the result back failed after every rank agreed; "
                       "the result is lost, aborting the grid\n", routine);
  Cblacs_abort(context, 1);
}

}  // namespace hetscal::shim
