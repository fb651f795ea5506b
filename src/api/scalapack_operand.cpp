#include "api/scalapack_operand.hpp"

#include "hetscal/hetscal.h"

namespace hetscal::api {

int describe_scalapack_operand(const mpi::ContextInfo& grid, int blacs_context,
                               const layout::MatrixArgument& a, mpi::CallerMatrix& matrix) {
  try {
    matrix = mpi::describe_caller_matrix(grid, blacs_context, a, mpi::CheckRules::Pblas);
    return 0;
  } catch (const mpi::DescriptorError& e) {
    return e.info();
  } catch (const InvalidArgument&) {  // accepted by PBLAS, but RSRC or CSRC = -1
    return HETSCAL_ERR_UNSUPPORTED;
  }
}

}  // namespace hetscal::api
