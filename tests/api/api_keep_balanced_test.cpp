// Native API: hetscal_context_keep_balanced, matrices rebalanced automatically at the start of a
// native call when the speeds learnt at run time call for it. Oracles independent of the
// rebalancing: every product gathered through the tile queries and compared with the
// reference product of the whole matrices (small integers: exact), each process's share of
// the elements counted through hetscal_local_elements, and the context's own record of what
// moved (KeptBalance). The ApiKeepBalancedSlowdown and ApiKeepBalancedAdaptOff tests need
// their ctest settings (the emulator preloaded, HETSCAL_ADAPT=0) and are run there only.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "api/context_registry.hpp"
#include "api_test_support.hpp"

namespace hetscal::api_test {
namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// A descriptor of an n×n matrix of context `ctx`.
std::vector<int> square_desc(hetscal_context_t ctx, int n) {
  std::vector<int> desc(HETSCAL_DESC_LEN);
  int info = -1;
  hetscal_descinit(desc.data(), n, n, ctx, std::max(1, hetscal_local_rows(ctx, n)), &info);
  EXPECT_EQ(info, 0);
  return desc;
}

/// One matrix of a context as the caller keeps it: descriptor, the whole matrix it holds and
/// a local array with room for any layout (the whole matrix: these tests are small).
struct Kept {
  std::vector<int> desc;
  std::vector<double> whole, local;
  Kept(hetscal_context_t ctx, int which, int n)
      : desc(square_desc(ctx, n)),
        whole(api_test::whole(which, n, n)),
        local(local_of(desc.data(), whole)) {
    local.resize(std::max(local.size(), whole.size()), -99.0);
  }
  long long capacity() const { return static_cast<long long>(local.size()); }
};

/// The registration's lists for `matrices`, with their capacities (or `capacities`).
struct Lists {
  std::vector<double*> arrays;
  std::vector<long long> capacities;
  std::vector<int*> descs;
  explicit Lists(const std::vector<Kept*>& matrices) {
    for (Kept* x : matrices) {
      arrays.push_back(x->local.data());
      capacities.push_back(x->capacity());
      descs.push_back(x->desc.data());
    }
  }
  int keep(hetscal_context_t ctx) {
    return hetscal_context_keep_balanced(ctx, static_cast<int>(arrays.size()), arrays.data(),
                                         capacities.data(), descs.data());
  }
};

/// A GEMM context on a Cartesian grid of every rank, planned for `speeds`, with A, B and C of
/// order n.
struct GemmLoop {
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  int n;
  std::unique_ptr<Kept> a, b, c;
  std::vector<double> product;  ///< the reference A·B
  GemmLoop(const BlacsGrid& grid, int order, const std::vector<double>& speeds) : n(order) {
    EXPECT_EQ(hetscal_gemm_context_create(grid.context, speeds.data(), n, n, n, &ctx),
              HETSCAL_SUCCESS);
    a = std::make_unique<Kept>(ctx, 1, n);
    b = std::make_unique<Kept>(ctx, 2, n);
    c = std::make_unique<Kept>(ctx, 3, n);
    product = reference_gemm(false, false, n, n, n, 1.0, a->whole, n, b->whole, n, 0.0, c->whole);
  }
  ~GemmLoop() { hetscal_context_free(&ctx); }
  GemmLoop(const GemmLoop&) = delete;
  GemmLoop& operator=(const GemmLoop&) = delete;

  /// C = A·B on the context's matrices, checked against the reference on every process.
  void multiply() {
    int info = -1;
    hetero_pdgemm("N", "N", n, n, n, 1.0, a->local.data(), 1, 1, a->desc.data(), b->local.data(), 1,
                  1, b->desc.data(), 0.0, c->local.data(), 1, 1, c->desc.data(), &info);
    EXPECT_EQ(info, 0);
    EXPECT_EQ(whole_of(c->desc.data(), c->local), product);  // integers: exact
    EXPECT_EQ(whole_of(a->desc.data(), a->local), a->whole);
  }
  const api::KeptBalance& kept() const { return api::find_context(ctx)->kept_balance; }
  /// This process's share of C's elements.
  double my_share() const {
    return static_cast<double>(hetscal_local_elements(c->desc.data())) / (double(n) * n);
  }
};

std::vector<double> equal_speeds() { return std::vector<double>(world_size(), 1.0); }

/// Speeds 1, 10, 100, ...: far from what any loaded machine of equal cores shows, so that the
/// estimates call for a rebalancing however noisy they are.
std::vector<double> steep_speeds() {
  std::vector<double> speeds(1, 1.0);
  while (static_cast<int>(speeds.size()) < world_size()) speeds.push_back(10.0 * speeds.back());
  return speeds;
}

// On equal cores the estimates are near equal, so a context planned for speeds 1, 10, 100, ...
// is rebalanced at its second call (the first starts the tracking; the second observes),
// moving less than a full redistribution, and every product is right.
TEST(ApiKeepBalanced, GivenSpeedsFollowTheLearntOnes) {
  if (world_size() < 2) GTEST_SKIP() << "adaptation needs two ranks";
  BlacsGrid grid;
  GemmLoop loop(grid, 160, steep_speeds());
  Lists lists({loop.a.get(), loop.b.get(), loop.c.get()});
  ASSERT_EQ(lists.keep(loop.ctx), HETSCAL_SUCCESS);
  loop.multiply();
  EXPECT_EQ(loop.kept().rebalancings, 0);
  loop.multiply();
  EXPECT_GE(loop.kept().rebalancings, 1);
  const hetscal_rebalance_report& report = loop.kept().last;
  EXPECT_GT(report.moved_elements, 0);
  EXPECT_LT(report.moved_elements, report.total_elements);
  EXPECT_EQ(report.total_elements, 3LL * loop.n * loop.n);
  loop.multiply();
}

// Registering no matrices stops the automatic rebalancing: nothing moves.
TEST(ApiKeepBalanced, ZeroMatricesStopIt) {
  if (world_size() < 2) GTEST_SKIP() << "adaptation needs two ranks";
  BlacsGrid grid;
  GemmLoop loop(grid, 160, steep_speeds());
  Lists lists({loop.a.get(), loop.b.get(), loop.c.get()});
  ASSERT_EQ(lists.keep(loop.ctx), HETSCAL_SUCCESS);
  ASSERT_EQ(hetscal_context_keep_balanced(loop.ctx, 0, nullptr, nullptr, nullptr), HETSCAL_SUCCESS);
  const std::vector<int> desc_before = loop.c->desc;
  const double share_before = loop.my_share();
  for (int call = 0; call < 3; ++call) loop.multiply();
  EXPECT_EQ(loop.kept().rebalancings, 0);
  EXPECT_EQ(loop.c->desc, desc_before);
  EXPECT_EQ(loop.my_share(), share_before);
}

// An operand that is not registered: the call computes on the layout it has and says why.
TEST(ApiKeepBalanced, UnregisteredOperandLeavesTheLayout) {
  if (world_size() < 2) GTEST_SKIP() << "adaptation needs two ranks";
  BlacsGrid grid;
  GemmLoop loop(grid, 160, steep_speeds());
  Lists lists({loop.a.get(), loop.b.get()});  // not C
  ASSERT_EQ(lists.keep(loop.ctx), HETSCAL_SUCCESS);
  const double share_before = loop.my_share();
  for (int call = 0; call < 3; ++call) loop.multiply();
  EXPECT_EQ(loop.kept().rebalancings, 0);
  EXPECT_NE(loop.kept().refusal.find("not a matrix registered"), std::string::npos)
      << loop.kept().refusal;
  EXPECT_EQ(loop.my_share(), share_before);
}

// Capacities that hold only the current local parts: some process must grow, so nothing
// moves, on every process alike, and the reason names the capacity.
TEST(ApiKeepBalanced, ShortCapacityLeavesTheLayout) {
  if (world_size() < 2) GTEST_SKIP() << "adaptation needs two ranks";
  BlacsGrid grid;
  GemmLoop loop(grid, 160, steep_speeds());
  Lists lists({loop.a.get(), loop.b.get(), loop.c.get()});
  for (std::size_t k = 0; k < 3; ++k)
    lists.capacities[k] = std::max(0LL, hetscal_local_elements(lists.descs[k]));
  ASSERT_EQ(lists.keep(loop.ctx), HETSCAL_SUCCESS);
  const std::vector<int> desc_before = loop.c->desc;
  const double share_before = loop.my_share();
  for (int call = 0; call < 3; ++call) loop.multiply();
  EXPECT_EQ(loop.kept().rebalancings, 0);
  EXPECT_NE(loop.kept().refusal.find("capacity is short"), std::string::npos)
      << loop.kept().refusal;
  EXPECT_EQ(loop.c->desc, desc_before);
  EXPECT_EQ(loop.my_share(), share_before);
}

// The argument checks: each refusal's code, the earlier registration kept, nothing written.
TEST(ApiKeepBalanced, BadArgumentsChangeNothing) {
  BlacsGrid grid;
  const int n = 12 * world_size() + 7;
  GemmLoop loop(grid, n, rising_speeds());
  GemmLoop other(grid, n, rising_speeds());
  Lists lists({loop.a.get(), loop.b.get()});
  ASSERT_EQ(lists.keep(loop.ctx), HETSCAL_SUCCESS);
  const std::vector<double> local_before = loop.a->local;
  const std::vector<int> desc_before = loop.a->desc;
  EXPECT_EQ(lists.keep(HETSCAL_CONTEXT_NULL), HETSCAL_ERR_CONTEXT);
  EXPECT_EQ(hetscal_context_keep_balanced(loop.ctx, -1, lists.arrays.data(),
                                          lists.capacities.data(), lists.descs.data()),
            HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(hetscal_context_keep_balanced(loop.ctx, 1, nullptr, lists.capacities.data(),
                                          lists.descs.data()),
            HETSCAL_ERR_ARGUMENT);
  Lists foreign({loop.a.get(), other.b.get()});  // B of another context
  EXPECT_EQ(foreign.keep(loop.ctx), HETSCAL_ERR_ARGUMENT);
  Lists shared({loop.a.get(), loop.c.get()});
  shared.arrays[1] = shared.arrays[0];  // one array for two matrices
  EXPECT_EQ(shared.keep(loop.ctx), HETSCAL_ERR_ARGUMENT);
  Lists short_room({loop.c.get()});  // below the current local part on some process
  if (world_rank() == 0) short_room.capacities[0] = hetscal_local_elements(loop.c->desc.data()) - 1;
  EXPECT_EQ(short_room.keep(loop.ctx), HETSCAL_ERR_ARGUMENT);
  const api::KeptBalance& kept = loop.kept();
  ASSERT_EQ(kept.matrices.size(), 2u);  // the first registration stands
  EXPECT_EQ(kept.matrices[0].array, loop.a->local.data());
  EXPECT_EQ(kept.matrices[1].desc, loop.b->desc.data());
  EXPECT_EQ(loop.a->local, local_before);
  EXPECT_EQ(loop.a->desc, desc_before);
}

// ---- run by their own ctest entries (tests/api/CMakeLists.txt) ----

using CallCount = double (*)();

/// The emulator's count of this process's BLAS calls, or nullptr when it is not preloaded.
CallCount emulator_calls() {
  return reinterpret_cast<CallCount>(dlsym(RTLD_DEFAULT, "hetscal_slowdown_calls"));
}

/// The BLAS call from which rank 1 turns slower: X of "1:4@calls=X.." in HETSCAL_SLOWDOWN.
double slowdown_start() {
  const char* spec = std::getenv("HETSCAL_SLOWDOWN");
  std::smatch found;
  const std::string text = spec ? spec : "";
  if (!std::regex_search(text, found, std::regex("1:4@calls=([0-9]+)\\.\\."))) return -1.0;
  return std::stod(found[1]);
}

/// Per call of a loop: whether the layout was rebalanced at its start, and this process's
/// share of the elements after it. Also the loop call in which rank 1 turned slower.
struct LoopHistory {
  std::vector<int> rebalanced;
  std::vector<double> share;
  int change = -1;
};

LoopHistory run_loop(GemmLoop& loop, int calls) {
  const CallCount count = emulator_calls();
  const double start = slowdown_start();
  LoopHistory history;
  std::string counts;  // rank 1's BLAS calls before each loop call: where the window falls
  for (int call = 0; call < calls; ++call) {
    if (count) counts += " " + std::to_string(static_cast<long long>(count()));
    const int before = loop.kept().rebalancings;
    loop.multiply();
    if (history.change < 0 && count && count() > start) history.change = call;
    history.rebalanced.push_back(loop.kept().rebalancings - before);
    history.share.push_back(loop.my_share());
  }
  if (world_rank() == 1) std::printf("rank 1's BLAS calls before each call:%s\n", counts.c_str());
  MPI_Bcast(&history.change, 1, MPI_INT, 1, MPI_COMM_WORLD);  // rank 1 counts its own calls
  return history;
}

/// Skips unless the emulator is preloaded with rank 1 turning slower mid-run.
bool emulated() {
  return emulator_calls() != nullptr && slowdown_start() >= 0 && world_size() >= 2;
}

constexpr int kLoopCalls = 12;
constexpr int kSlowdownOrder = 192;

// Every rank 2x slower (sleeping dominating), rank 1 4x from a given BLAS call on, so that
// it turns 3x slower than the others: the layout is rebalanced at the start of the second call
// after the one during which it slowed (the speed tracking's c + 2),
// rank 1's share falls to about its speed's, and every product is right.
TEST(ApiKeepBalancedSlowdown, FollowsTheSlowedRank) {
  if (!emulated()) GTEST_SKIP() << "needs the emulator (ctest api_keep_balanced_slowdown_*)";
  BlacsGrid grid;
  GemmLoop loop(grid, kSlowdownOrder, equal_speeds());
  Lists lists({loop.a.get(), loop.b.get(), loop.c.get()});
  ASSERT_EQ(lists.keep(loop.ctx), HETSCAL_SUCCESS);
  const double share_before = loop.my_share();
  const LoopHistory history = run_loop(loop, kLoopCalls);
  ASSERT_GE(history.change, 1) << "the change must fall inside the loop, after its first call";
  ASSERT_LE(history.change, kLoopCalls - 5);
  int first = -1;
  for (int call = 0; call < kLoopCalls && first < 0; ++call)
    if (history.rebalanced[call]) first = call;
  if (world_rank() == 0)
    std::printf(
        "slowed during call %d, rebalanced at the start of call %d: moved %lld of %lld "
        "elements, a fresh plan %lld\n",
        history.change, first, loop.kept().last.moved_elements, loop.kept().last.total_elements,
        loop.kept().last.fresh_elements);
  EXPECT_GT(first, history.change);
  EXPECT_LE(first, history.change + 2);
  const hetscal_rebalance_report& report = loop.kept().last;
  EXPECT_GT(report.moved_elements, 0);
  EXPECT_LT(report.moved_elements, report.total_elements);
  // Rank 1 runs at 1/3 of the others' speed: its share of the elements moves toward
  // 1 / (3(P - 1) + 1) (1/4 on 2 ranks, 1/7 on 3), within what the panel allows.
  const double target = 1.0 / (3.0 * (world_size() - 1) + 1.0);
  if (world_rank() == 1) {
    EXPECT_LT(history.share.back(), share_before);
    EXPECT_GT(history.share.back(), 0.5 * target);
    EXPECT_LT(history.share.back(), 1.5 * target);
  }
}

// The same loop with nothing registered: the layout stays, the products are right.
TEST(ApiKeepBalancedSlowdown, NothingRegisteredNothingMoves) {
  if (!emulated()) GTEST_SKIP() << "needs the emulator (ctest api_keep_balanced_slowdown_*)";
  BlacsGrid grid;
  GemmLoop loop(grid, kSlowdownOrder, equal_speeds());
  const double share_before = loop.my_share();
  const LoopHistory history = run_loop(loop, kLoopCalls);
  ASSERT_GE(history.change, 1);
  EXPECT_EQ(loop.kept().rebalancings, 0);
  EXPECT_EQ(history.share.back(), share_before);
}

// HETSCAL_ADAPT=0: the same loop, registered, learns nothing and moves nothing.
TEST(ApiKeepBalancedAdaptOff, NothingMoves) {
  if (!emulated()) GTEST_SKIP() << "needs the emulator (ctest api_keep_balanced_adapt_off_*)";
  BlacsGrid grid;
  GemmLoop loop(grid, kSlowdownOrder, equal_speeds());
  Lists lists({loop.a.get(), loop.b.get(), loop.c.get()});
  ASSERT_EQ(lists.keep(loop.ctx), HETSCAL_SUCCESS);
  const double share_before = loop.my_share();
  const LoopHistory history = run_loop(loop, kLoopCalls);
  ASSERT_GE(history.change, 1);
  EXPECT_EQ(loop.kept().rebalancings, 0);
  EXPECT_EQ(history.share.back(), share_before);
}

}  // namespace
}  // namespace hetscal::api_test
