#include "mpi/caller_matrix.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "mpi/agreement.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::mpi {
namespace {

// Codes as mpi/agreement.hpp encodes INFO (PCHK1MAT): a scalar argument at position p is
// p*100, field f of the descriptor at position p is p*100+f.
constexpr int kDescMult = 100;

// The global values of the argument with their codes, as GLOBCHK compares them: every rank
// must pass what grid position (0,0) passes, or the ranks would plan different moves. A
// fixed capacity: the agreement allocates nothing, so that no rank leaves it alone.
struct GlobalValues {
  static constexpr int kCapacity = 16;  // M, N, IA, JA, DTYPE and at most 8 fields
  std::array<std::pair<int, int>, kCapacity> items{};
  int count = 0;
  void add(int value, int code) { items[static_cast<std::size_t>(count++)] = {value, code}; }
};

GlobalValues global_values(const layout::MatrixArgument& a, CheckRules rules) {
  const int d = a.desc_position * kDescMult;
  GlobalValues values;
  values.add(a.m, a.m_position * kDescMult);
  values.add(a.n, a.n_position * kDescMult);
  values.add(a.ia, (a.desc_position - 2) * kDescMult);
  values.add(a.ja, (a.desc_position - 1) * kDescMult);
  values.add(a.desc[0], d + 1);
  // PBLAS names fields by their 11-entry positions whatever the type (PB_CargFtoC).
  const bool pblas_positions = rules == CheckRules::Pblas;
  // PCHK1MAT reads a 9-entry descriptor whatever its DTYPE says (CHK1MAT refuses any other
  // type): reading 11 entries there could run past the caller's array.
  const bool eleven = pblas_positions &&
                      a.desc[0] == static_cast<int>(layout::DescriptorType::BlockCyclic2DInb);
  if (eleven) {
    for (int f = 3; f <= 10; ++f) values.add(a.desc[f - 1], d + f);  // M..CSRC
  } else if (!pblas_positions ||
             a.desc[0] == static_cast<int>(layout::DescriptorType::BlockCyclic2D)) {
    using namespace layout;
    const int m = pblas_positions ? field11::kM : field9::kM,
              n = pblas_positions ? field11::kN : field9::kN;
    const int mb = pblas_positions ? field11::kMb : field9::kMb,
              nb = pblas_positions ? field11::kNb : field9::kNb;
    const int rs = pblas_positions ? field11::kRsrc : field9::kRsrc,
              cs = pblas_positions ? field11::kCsrc : field9::kCsrc;
    values.add(a.desc[2], d + m);
    values.add(a.desc[3], d + n);
    values.add(a.desc[4], d + mb);
    values.add(a.desc[5], d + nb);
    values.add(a.desc[6], d + rs);
    values.add(a.desc[7], d + cs);
  }
  return values;
}

}  // namespace

// Local check, consistency with grid position (0,0), and the minimum over all ranks.
int agreed_argument_info(const ContextInfo& context, int blacs_context, const layout::MatrixArgument& a,
                         CheckRules rules, int previous_info, std::array<int, 2>* also_minimised) {
  const layout::BlacsGridView grid{blacs_context, context.nprow, context.npcol, context.myrow,
                                   context.mycol};
  const int local = rules == CheckRules::Pblas
                        ? layout::check_matrix_pblas(a, grid, previous_info)
                        : layout::check_matrix_scalapack(a, grid, previous_info);
  int code = argument_info_key(local);
  const GlobalValues values = global_values(a, rules);
  // Grid position (0,0)'s value count (it depends on DTYPE) and values in one broadcast of a
  // fixed size, so that a differing DTYPE cannot hang: ScaLAPACK's small inner calls come
  // here thousands of times, each collective a round trip.
  std::array<int, GlobalValues::kCapacity + 1> reference{};
  const int root = context.rank(0, 0);
  if (context.my_rank == root) {
    reference[0] = values.count;
    for (int k = 0; k < values.count; ++k) reference[static_cast<std::size_t>(k) + 1] = values.items[static_cast<std::size_t>(k)].first;
  }
  check_mpi(MPI_Bcast(reference.data(), static_cast<int>(reference.size()), MPI_INT, root, context.comm), "MPI_Bcast");
  const int count = reference[0];
  const int common = std::min(values.count, count);
  for (int k = 0; k < common; ++k) {
    const auto& [value, value_code] = values.items[static_cast<std::size_t>(k)];
    if (value != reference[static_cast<std::size_t>(k) + 1]) code = std::min(code, value_code);
  }
  if (values.count != count) code = std::min(code, a.desc_position * kDescMult + 1);
  // The caller's own values ride on the same reduction.
  std::array<int, 3> minimised{code, also_minimised ? (*also_minimised)[0] : 0, also_minimised ? (*also_minimised)[1] : 0};
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, minimised.data(), 3, MPI_INT, MPI_MIN, context.comm), "MPI_Allreduce");
  if (also_minimised) *also_minimised = {minimised[1], minimised[2]};
  return argument_info_of_key(minimised[0]);
}

layout::ProcessGrid process_grid_in(const ContextInfo& grid_context, MPI_Comm comm) {
  MPI_Group from = MPI_GROUP_NULL, to = MPI_GROUP_NULL;
  check_mpi(MPI_Comm_group(grid_context.comm, &from), "MPI_Comm_group");
  check_mpi(MPI_Comm_group(comm, &to), "MPI_Comm_group");
  std::vector<int> ranks(grid_context.rank_table.size());
  const int code = MPI_Group_translate_ranks(from, static_cast<int>(ranks.size()),
                                             grid_context.rank_table.data(), to, ranks.data());
  int size = 0;
  const int size_code = MPI_Group_size(to, &size);
  // The groups are freed before any check throws; a failed free only leaks a group.
  (void)MPI_Group_free(&from);
  (void)MPI_Group_free(&to);
  check_mpi(code, "MPI_Group_translate_ranks");
  check_mpi(size_code, "MPI_Group_size");
  for (int rank : ranks) {
    if (rank == MPI_UNDEFINED) {
      throw InvalidArgument("hetscal: a process of the grid is not in the target communicator");
    }
  }
  return layout::ProcessGrid(grid_context.nprow, grid_context.npcol, std::move(ranks), size);
}

CallerMatrix describe_caller_matrix(const ContextInfo& context, int blacs_context,
                                    const layout::MatrixArgument& a, CheckRules rules,
                                    int previous_info) {
  const int info = agreed_argument_info(context, blacs_context, a, rules, previous_info);
  if (info != 0) {
    throw DescriptorError(info, "hetscal: matrix argument refused, INFO = " + std::to_string(info));
  }
  // Its description allocates: agreed, so that a rank short of memory fails with the others.
  // A refusal (RSRC or CSRC = -1) is deterministic, the same on every rank: it passes through
  // the agreement as itself, not as a failed stage.
  CallerMatrix matrix;
  bool refused = false;
  std::string why;
  run_agreed(context.comm, "argument check", [&] {
    try {
      matrix = caller_matrix(context, layout::Descriptor::parse(a.desc), a.ia - 1, a.ja - 1, a.m, a.n);
    } catch (const InvalidArgument& e) {
      refused = true;
      why = e.what();
    }
  });
  if (refused) throw InvalidArgument(why);
  return matrix;
}

CallerMatrix caller_matrix(const ContextInfo& context, const layout::Descriptor& desc, std::int64_t ia,
                           std::int64_t ja, std::int64_t rows, std::int64_t cols) {
  layout::ProcessGrid grid(context.nprow, context.npcol, context.rank_table, context.num_ranks());
  CallerMatrix matrix;
  matrix.distribution = std::make_unique<layout::BlockCyclicDistribution>(
      desc, layout::SubmatrixExtent{ia, ja, rows, cols},
      std::move(grid));
  matrix.storage = std::make_unique<layout::CartesianLocalLayout>(
      layout::caller_local_layout(*matrix.distribution, context.my_rank));
  return matrix;
}

}  // namespace hetscal::mpi
