#include "api/scalapack_operand.hpp"

#include <exception>

#include "hetscal/hetscal.h"

namespace hetscal::api {
namespace {

// PBLAS numbers descriptor fields as in its 11-entry descriptor (CHK1MAT as in its 9-entry
// one, already the native API's numbering); the native API numbers them
// 1..9 as in ScaLAPACK's 9-entry one (the header's rule, whatever the descriptor's kind):
// IMB and INB, which a 9-entry descriptor lacks, count as MB and NB.
int nine_entry_numbering(int info) {
  if (info > -100) return info;  // a scalar argument, or no error
  static constexpr int kField9Of11[] = {0, 1, 2, 3, 4, 5, 6, 5, 6, 7, 8, 9};
  const int position = -info / 100, field = -info % 100;
  if (field < 1 || field > 11) return info;
  return -(100 * position + kField9Of11[field]);
}

}  // namespace

int describe_scalapack_operand(const mpi::ContextInfo& grid, int blacs_context,
                               const layout::MatrixArgument& a, mpi::CallerMatrix& matrix,
                               mpi::CheckRules rules, int previous_info) {
  try {
    matrix = mpi::describe_caller_matrix(grid, blacs_context, a, rules, previous_info);
    return 0;
  } catch (const mpi::DescriptorError& e) {
    return rules == mpi::CheckRules::Pblas ? nine_entry_numbering(e.info()) : e.info();
  } catch (const InvalidArgument&) {  // accepted by PBLAS, but RSRC or CSRC = -1
    return HETSCAL_ERR_UNSUPPORTED;
  }
}

const mpi::ContextInfo* scalapack_grid(int blacs_context) {
  try {
    return &mpi::context_info(blacs_context);
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace hetscal::api
