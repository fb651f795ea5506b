// The fault-injection sweep of issue 30: on one BLACS grid, for each routine and precision
// asked, one call is made with the k-th allocation of hetscal's own code failing on rank r
// (fail_allocation.c, linked in), for every rank r and every k = 1, 2, … until a call makes
// fewer than k allocations on r. Every call must end (a watchdog alarm reports "hang at …"
// and aborts the run) with ScaLAPACK's result on the same input, within rounding: the real
// ScaLAPACK's when hetscal forwarded (so the caller's data was intact when handed over), or
// hetscal's own, equal to it within rounding, when it computed; with INFO, IPIV and TAU
// alike. The call's verbose line (HETSCAL_VERBOSE=2, captured from rank 0's stderr) must say
// "computed", or "forwarded" with the failing stage and the real cause (memory).
// The native API (hetero_p?xxx on ScaLAPACK descriptors) forwards nothing: a failure there
// must return the same error on every rank with sub(A) (or C) untouched.
//
// usage: fault_sweep shim|native PxQ ROUTINES PRECISIONS [N [every|reverse|rotate]]
//   ROUTINES: letters of g (GEMM), l (GETRF), q (GEQRF), c (POTRF); PRECISIONS: of s d c z.
//   every (the default): each allocation k fails on every rank in turn, P calls per k;
//   reverse: the same, from the last rank down;
//   rotate: allocation k fails on rank (k - 1) mod P only, one call per k, so every site is
//   still failed, on one rank. A 2x2 sweep makes thousands of calls of 4 ranks, each a few
//   hundred messages; with more ranks than cores, and other work beside them, every message
//   waits for a time slice (1 of 16 parts of an "every" sweep in 200 s beside two CPU hogs,
//   against 3 s a part on an idle machine), so the suite rotates there.
// Prints one line per (routine, precision): allocation sites per rank, calls, outcomes;
// the last line "fault_sweep: passed" or "fault_sweep: FAILED".
#include <dlfcn.h>
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "caller_matrices.hpp"
#include "fail_allocation.h"
#include "hetscal/hetscal.h"
#include "scalapack_abi.hpp"

namespace {

using namespace caller_matrices;

constexpr int kBlock = 8;  // the caller's block size: several blocks per rank
constexpr unsigned kWatchdogS = 20;  // one call, forwarded or computed, takes milliseconds

int my_rank = 0, ranks = 1;
bool sweep_failed = false;

// ----- the watchdog --------------------------------------------------------------------

char hang_message[160];

void on_alarm(int) {
  (void)!write(2, hang_message, std::strlen(hang_message));
  _exit(3);
}

// A pseudo-random entry in [-1, 1) of (i, j): a matrix of full rank whose pivots are well
// apart, so that LU's row interchanges do not hang on rounding. (A smooth formula such as
// sin(a·i + b·j) makes a matrix of rank 2 or 3, whose later pivots are rounding noise: two
// correct factorizations by different plans then pivot differently.)
double scattered(int i, int j, int seed) {
  std::uint32_t h = static_cast<std::uint32_t>(i) * 73856093u ^ static_cast<std::uint32_t>(j) * 19349663u ^
                    static_cast<std::uint32_t>(seed) * 83492791u;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return static_cast<double>(h) / 2147483648.0 - 1.0;
}

template <typename T>
T general(int i, int j) {
  return element<T>(scattered(i, j, 1), scattered(i, j, 2));
}

// Hermitian positive definite of order n: diagonally dominant.
template <typename T>
T positive_definite(int i, int j, int n) {
  if (i == j) return element<T>(n + 1.0 + 0.1 * i, 0.0);
  const int lo = std::min(i, j), hi = std::max(i, j);
  const double im = 0.3 * std::cos(0.7 * lo + 0.2 * hi);
  return element<T>(0.5 * std::sin(0.3 * lo + 0.9 * hi), i < j ? im : -im);
}

// ----- what a call leaves: the arrays it writes and its integer outputs ------------------

struct Result {
  std::vector<double> values;  // real and imaginary parts of every written array
  std::vector<int> integers;   // INFO, IPIV, the native API's status
};

template <typename T>
void append(Result& r, const std::vector<T>& x) {
  for (const T& v : x) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      r.values.push_back(v);
    } else {
      r.values.push_back(v.real());
      r.values.push_back(v.imag());
    }
  }
}

// One rank's comparison of `got` with `want`: whether the integers (or the sizes) differ, the
// largest difference of the values (infinite for a NaN) and the largest magnitude wanted.
struct Comparison {
  double differs = 0.0, error = 0.0, scale = 0.0;
};

Comparison compare(const Result& got, const Result& want) {
  Comparison c;
  c.differs = got.integers != want.integers || got.values.size() != want.values.size();
  if (got.values.size() == want.values.size()) {
    for (std::size_t i = 0; i < want.values.size(); ++i) {
      c.scale = std::max(c.scale, std::abs(want.values[i]));
      const double d = std::abs(got.values[i] - want.values[i]);
      c.error = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(c.error, d);
    }
  }
  return c;
}

// Whether a comparison taken over every rank (each field's maximum) is a match: integers
// exactly, values within n·ε relative. Rank 0 says why not; FAULT_SWEEP_TRACE=1 has each rank
// list its own differing integers of `got` against `want`.
bool agrees(const Comparison& everywhere, double tolerance, const Result& got, const Result& want) {
  if (everywhere.differs == 0.0 && everywhere.error <= tolerance * std::max(everywhere.scale, 1.0)) return true;
  if (std::getenv("FAULT_SWEEP_TRACE") && got.integers != want.integers)
    for (std::size_t i = 0; i < got.integers.size() && i < want.integers.size(); ++i)
      if (got.integers[i] != want.integers[i])
        std::printf("rank %d integer %zu: %d, want %d\n", my_rank, i, got.integers[i], want.integers[i]);
  if (my_rank == 0)
    std::printf("fault_sweep: %s: largest difference %.3g of %.3g\n",
                everywhere.differs != 0.0 ? "integers differ" : "values differ", everywhere.error, everywhere.scale);
  return false;
}

// What every rank learns after a call, in one MPI_Allreduce (MPI_MAX) rather than one per
// question: each collective costs every rank a time slice when ranks outnumber cores, and the
// sweep makes thousands of calls. Whether the allocation failed on some rank; the call's
// result against ScaLAPACK's; the data against the caller's input (the native API's failed
// calls); the lowest and highest native status (the lowest as the maximum of its negation).
struct Outcome {
  double fired = 0.0;
  Comparison result, data;
  double highest_status = 0.0, negated_lowest_status = 0.0;
};

Outcome everywhere(Outcome mine) {
  static_assert(sizeof(Outcome) == 9 * sizeof(double), "Outcome is reduced as 9 doubles");
  MPI_Allreduce(MPI_IN_PLACE, &mine, 9, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return mine;
}

// ----- the routines, by implementation ---------------------------------------------------

enum class Impl { ScaLAPACK, Shim, Native };

template <typename T>
using GemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const T*, const T*,
                        const int*, const int*, const int*, const T*, const int*, const int*, const int*,
                        const T*, T*, const int*, const int*, const int*);

// The native API's routines of each precision (complex scalars by pointer, real by value).
int native_gemm(const int* dims, const float& alpha, const Local<float>& a, const Local<float>& b, const float& beta,
                Local<float>& c, int* info) {
  hetero_psgemm("N", "N", dims[0], dims[1], dims[2], alpha, a.data.data(), 1, 1, a.desc, b.data.data(), 1, 1,
                b.desc, beta, c.data.data(), 1, 1, c.desc, info);
  return *info;
}
int native_gemm(const int* dims, const double& alpha, const Local<double>& a, const Local<double>& b,
                const double& beta, Local<double>& c, int* info) {
  hetero_pdgemm("N", "N", dims[0], dims[1], dims[2], alpha, a.data.data(), 1, 1, a.desc, b.data.data(), 1, 1,
                b.desc, beta, c.data.data(), 1, 1, c.desc, info);
  return *info;
}
int native_gemm(const int* dims, const std::complex<float>& alpha, const Local<std::complex<float>>& a,
                const Local<std::complex<float>>& b, const std::complex<float>& beta,
                Local<std::complex<float>>& c, int* info) {
  hetero_pcgemm("N", "N", dims[0], dims[1], dims[2], &alpha, a.data.data(), 1, 1, a.desc, b.data.data(), 1, 1,
                b.desc, &beta, c.data.data(), 1, 1, c.desc, info);
  return *info;
}
int native_gemm(const int* dims, const std::complex<double>& alpha, const Local<std::complex<double>>& a,
                const Local<std::complex<double>>& b, const std::complex<double>& beta,
                Local<std::complex<double>>& c, int* info) {
  hetero_pzgemm("N", "N", dims[0], dims[1], dims[2], &alpha, a.data.data(), 1, 1, a.desc, b.data.data(), 1, 1,
                b.desc, &beta, c.data.data(), 1, 1, c.desc, info);
  return *info;
}
int native_getrf(int m, int n, float* a, const int* d, int* p, int* i) { return hetero_psgetrf(m, n, a, 1, 1, d, p, i); }
int native_getrf(int m, int n, double* a, const int* d, int* p, int* i) { return hetero_pdgetrf(m, n, a, 1, 1, d, p, i); }
int native_getrf(int m, int n, std::complex<float>* a, const int* d, int* p, int* i) {
  return hetero_pcgetrf(m, n, a, 1, 1, d, p, i);
}
int native_getrf(int m, int n, std::complex<double>* a, const int* d, int* p, int* i) {
  return hetero_pzgetrf(m, n, a, 1, 1, d, p, i);
}
int native_geqrf(int m, int n, float* a, const int* d, float* t, int* i) { return hetero_psgeqrf(m, n, a, 1, 1, d, t, i); }
int native_geqrf(int m, int n, double* a, const int* d, double* t, int* i) { return hetero_pdgeqrf(m, n, a, 1, 1, d, t, i); }
int native_geqrf(int m, int n, std::complex<float>* a, const int* d, std::complex<float>* t, int* i) {
  return hetero_pcgeqrf(m, n, a, 1, 1, d, t, i);
}
int native_geqrf(int m, int n, std::complex<double>* a, const int* d, std::complex<double>* t, int* i) {
  return hetero_pzgeqrf(m, n, a, 1, 1, d, t, i);
}
int native_potrf(int n, float* a, const int* d, int* i) { return hetero_pspotrf("L", n, a, 1, 1, d, i); }
int native_potrf(int n, double* a, const int* d, int* i) { return hetero_pdpotrf("L", n, a, 1, 1, d, i); }
int native_potrf(int n, std::complex<float>* a, const int* d, int* i) { return hetero_pcpotrf("L", n, a, 1, 1, d, i); }
int native_potrf(int n, std::complex<double>* a, const int* d, int* i) { return hetero_pzpotrf("L", n, a, 1, 1, d, i); }

// One call of a routine on fresh copies of its inputs. `window` runs the call between the
// arming and the disarming of the allocator (and the watchdog). The native API's status
// joins the integers, so that a failure is told from a success.
using Call = std::function<Result(Impl, const std::function<void(const std::function<void()>&)>& window)>;

template <typename T>
Call gemm_call(const Grid& grid, int n) {
  const int m = n, k = n + 3;
  auto a = std::make_shared<Local<T>>(distributed<T>(grid, m, k, kBlock, general<T>));
  auto b = std::make_shared<Local<T>>(distributed<T>(grid, k, n, kBlock, [](int i, int j) { return general<T>(j, i + 5); }));
  auto c0 = std::make_shared<Local<T>>(distributed<T>(grid, m, n, kBlock, [](int i, int j) { return general<T>(i + 2, j); }));
  return [=](Impl impl, const auto& window) {
    Local<T> c = *c0;
    const int dims[3] = {m, n, k}, one = 1;
    const T alpha = element<T>(1.5, 0.25), beta = element<T>(0.5, -0.5);
    int status = 0;
    if (impl == Impl::Native) {
      window([&] { status = native_gemm(dims, alpha, *a, *b, beta, c, &status); });
    } else {
      const std::string name = "p" + std::string(1, prefix<T>()) + "gemm_";
      auto fn = impl == Impl::Shim ? reinterpret_cast<GemmFn<T>>(dlsym(RTLD_DEFAULT, name.c_str()))
                                   : reinterpret_cast<GemmFn<T>>(scalapack_symbol(name));
      window([&] {
        fn("N", "N", &dims[0], &dims[1], &dims[2], &alpha, a->data.data(), &one, &one, a->desc, b->data.data(),
           &one, &one, b->desc, &beta, c.data.data(), &one, &one, c.desc);
      });
    }
    Result r;
    append(r, c.data);
    r.integers.push_back(status);
    return r;
  };
}

template <typename T>
Call getrf_call(const Grid& grid, int n) {
  const int m = n + 5;
  auto a0 = std::make_shared<Local<T>>(distributed<T>(grid, m, n, kBlock, general<T>));
  return [=](Impl impl, const auto& window) {
    Local<T> a = *a0;
    std::vector<int> ipiv(static_cast<std::size_t>(a.rows + kBlock), 0);
    int info = 0, status = 0;
    const int one = 1;
    if (impl == Impl::Native) {
      window([&] { status = native_getrf(m, n, a.data.data(), a.desc, ipiv.data(), &info); });
    } else {
      using Fn = scalapack_overloads::Getrf<T>;
      const std::string name = "p" + std::string(1, prefix<T>()) + "getrf_";
      Fn fn = impl == Impl::Shim ? scalapack_overloads::getrf(static_cast<T*>(nullptr))
                                 : reinterpret_cast<Fn>(scalapack_symbol(name));
      window([&] { fn(&m, &n, a.data.data(), &one, &one, a.desc, ipiv.data(), &info); });
    }
    Result r;
    append(r, a.data);
    r.integers = ipiv;
    r.integers.push_back(info);
    r.integers.push_back(status);
    return r;
  };
}

template <typename T>
Call geqrf_call(const Grid& grid, int n) {
  const int m = n + 5;
  auto a0 = std::make_shared<Local<T>>(distributed<T>(grid, m, n, kBlock, general<T>));
  return [=](Impl impl, const auto& window) {
    Local<T> a = *a0;
    std::vector<T> tau(static_cast<std::size_t>(a.cols + kBlock));
    int info = 0, status = 0;
    const int one = 1;
    if (impl == Impl::Native) {
      window([&] { status = native_geqrf(m, n, a.data.data(), a.desc, tau.data(), &info); });
    } else {
      using Fn = scalapack_overloads::Geqrf<T>;
      const std::string name = "p" + std::string(1, prefix<T>()) + "geqrf_";
      Fn fn = impl == Impl::Shim ? scalapack_overloads::geqrf(static_cast<T*>(nullptr))
                                 : reinterpret_cast<Fn>(scalapack_symbol(name));
      T query{};
      const int ask = -1;
      fn(&m, &n, a.data.data(), &one, &one, a.desc, tau.data(), &query, &ask, &info);
      const int lwork = static_cast<int>(std::abs(query)) + 1;
      std::vector<T> work(static_cast<std::size_t>(lwork));
      window([&] { fn(&m, &n, a.data.data(), &one, &one, a.desc, tau.data(), work.data(), &lwork, &info); });
    }
    Result r;
    append(r, a.data);
    append(r, tau);
    r.integers = {info, status};
    return r;
  };
}

template <typename T>
Call potrf_call(const Grid& grid, int n) {
  auto a0 = std::make_shared<Local<T>>(
      distributed<T>(grid, n, n, kBlock, [n](int i, int j) { return positive_definite<T>(i, j, n); }));
  return [=](Impl impl, const auto& window) {
    Local<T> a = *a0;
    int info = 0, status = 0;
    const int one = 1;
    if (impl == Impl::Native) {
      window([&] { status = native_potrf(n, a.data.data(), a.desc, &info); });
    } else {
      using Fn = scalapack_overloads::Potrf<T>;
      const std::string name = "p" + std::string(1, prefix<T>()) + "potrf_";
      Fn fn = impl == Impl::Shim ? scalapack_overloads::potrf(static_cast<T*>(nullptr))
                                 : reinterpret_cast<Fn>(scalapack_symbol(name));
      window([&] { fn("L", &n, a.data.data(), &one, &one, a.desc, &info); });
    }
    Result r;
    append(r, a.data);
    r.integers = {info, status};
    return r;
  };
}

// ----- rank 0's stderr during one call ---------------------------------------------------

class CapturedStderr {
 public:
  CapturedStderr() {
    char path[] = "/tmp/fault_sweep_XXXXXX";
    file_ = mkstemp(path);
    unlink(path);
    saved_ = dup(2);
  }
  void start() {
    std::fflush(stderr);
    (void)!ftruncate(file_, 0);
    lseek(file_, 0, SEEK_SET);
    dup2(file_, 2);
  }
  std::string stop() {
    std::fflush(stderr);
    dup2(saved_, 2);
    std::string text(static_cast<std::size_t>(lseek(file_, 0, SEEK_END)), '\0');
    (void)!pread(file_, text.data(), text.size(), 0);
    return text;
  }

 private:
  int file_ = -1, saved_ = -1;
};

// The verbose line of the routine's call ("hetscal: PDGETRF 53x48 forwarded: …", or the
// shim's "hetscal: PDGETRF forwarded after an internal error: …").
std::string call_line(const std::string& captured, const std::string& routine) {
  const std::string unrouted = "hetscal: call forwarded: ";  // the call's start failed
  const std::size_t start_failed = captured.find(unrouted);
  if (start_failed != std::string::npos) return captured.substr(start_failed, captured.find('\n', start_failed) - start_failed);
  const std::string head = "hetscal: " + routine + " ";
  std::size_t at = 0;
  while ((at = captured.find(head, at)) != std::string::npos) {
    const std::size_t end = captured.find('\n', at);
    const std::string line = captured.substr(at, end - at);
    if (line.find(" computed by hetscal: ") != std::string::npos || line.find(" forwarded: ") != std::string::npos ||
        line.find(" forwarded after an internal error: ") != std::string::npos)
      return line;
    at = end;
  }
  return "";
}

// Rank 0's verdict on the message of a call whose injected failure happened: "" when it is
// right (computed, or forwarded naming the stage and the memory failure), else what is wrong.
std::string message_problem(const std::string& line) {
  if (line.empty()) return "no verbose line for the call";
  if (line.find(" computed by hetscal: ") != std::string::npos) return "";
  const bool names_stage = line.find(" failed on rank ") != std::string::npos;
  const bool names_cause = line.find("bad_alloc") != std::string::npos || line.find("memory") != std::string::npos;
  return names_stage && names_cause ? "" : "forwarded without the stage and the cause";
}

// The stage a forward names ("allocate", "price", …), for the tally.
std::string outcome_of(const std::string& line) {
  if (line.find(" computed by hetscal: ") != std::string::npos) return "computed";
  const std::size_t at = line.find(" failed on rank ");
  if (at == std::string::npos) return "forwarded";
  std::size_t begin = line.rfind(' ', at - 1);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return "forwarded (" + line.substr(begin, at - begin) + " failed)";
}

// ----- the sweep ---------------------------------------------------------------------------

struct Tally {
  long calls = 0;
  std::vector<long> sites;
  std::map<std::string, long> outcomes;
};

bool rotate_ranks = false;   // the command line's "rotate"
bool reverse_ranks = false;  // the command line's "reverse"

// Which rank's k-th allocation fails in the next call. Every: k = first, first + 1, … on
// rank 0 until a call fails nothing, then the same on rank 1, … (reverse: from the last rank
// down, so that its cold paths, before the first ranks' calls warm the caches, are swept).
// Rotate: k = first, … on
// rank (k − 1) mod P, until P calls in a row fail nothing: once a rank's k-th allocation is
// not reached, no later one is (a call that fails nothing allocates the same each time).
class SweepOrder {
 public:
  explicit SweepOrder(long first) : first_(std::max(first, 1L)), k_(first_ - 1), sites_(static_cast<std::size_t>(ranks), 0L) {}

  /// The next (target, k); false when the sweep is over.
  bool next(int& target, long& k) {
    if (rotate_ranks ? misses_ >= ranks : target_ >= ranks) return false;
    ++k_;
    if (rotate_ranks) target_ = static_cast<int>((k_ - 1) % ranks);
    target = reverse_ranks ? ranks - 1 - target_ : target_;
    k = k_;
    return true;
  }

  /// Whether the call of the last next() failed its allocation on some rank.
  void record(bool fired) {
    const auto at = static_cast<std::size_t>(reverse_ranks ? ranks - 1 - target_ : target_);
    if (fired) {
      sites_[at] = std::max(sites_[at], k_);
      misses_ = 0;
    } else if (rotate_ranks) {
      ++misses_;
    } else {
      sites_[at] = k_ - 1;
      ++target_;
      k_ = first_ - 1;
    }
  }

  /// Per rank, its last allocation failed (every: the call's allocations on that rank).
  const std::vector<long>& sites() const { return sites_; }

 private:
  long first_, k_;
  int target_ = 0, misses_ = 0;
  std::vector<long> sites_;
};

// Sweeps every allocation of `call` on every rank. @return the tally (printed by rank 0).
template <typename T>
Tally sweep(const std::string& routine, Impl impl, const Call& call, CapturedStderr& captured) {
  const double tolerance = 200.0 * std::numeric_limits<typename Real<T>::type>::epsilon() * 64;
  const auto plain = [](const std::function<void()>& f) { f(); };
  const Result reference = call(Impl::ScaLAPACK, plain);
  Tally tally;
  // The native API's input without its integers, for the failed calls' check (a copy: the
  // window runs nothing).
  Result untouched;
  if (impl == Impl::Native) {
    untouched = call(Impl::Native, [](const std::function<void()>&) {});
    untouched.integers.clear();
  }
  // FAULT_SWEEP_FROM=<k>: start every rank's sweep at allocation k (to look at one failure).
  const long first = std::getenv("FAULT_SWEEP_FROM") ? std::atol(std::getenv("FAULT_SWEEP_FROM")) : 1;
  SweepOrder order(first);
  int target = 0;
  long k = 0;
  while (order.next(target, k)) {
    // Every rank starts the call together: the previous call ended in everywhere()'s
    // collective (or the reference call, before the first).
    int fired = 0;
    std::string line;
    std::snprintf(hang_message, sizeof hang_message, "fault_sweep: HANG at %s, allocation %ld on rank %d (rank %d)\n",
                  routine.c_str(), k, target, my_rank);
    const Result result = call(impl, [&](const std::function<void()>& f) {
      if (my_rank == 0) captured.start();
      alarm(kWatchdogS);
      fail_allocation_arm(my_rank == target ? k : 0);
      f();
      fail_allocation_disarm(&fired);
      alarm(0);
      if (my_rank == 0) line = call_line(captured.stop(), routine);
    });
    Outcome mine;
    mine.fired = fired;
    mine.result = compare(result, reference);
    Result data = result;
    if (impl == Impl::Native) {
      const int status = result.integers.back();
      mine.highest_status = status;
      mine.negated_lowest_status = -status;
      data.integers.clear();
      mine.data = compare(data, untouched);
    }
    const Outcome all = everywhere(mine);
    if (my_rank == 0 && std::getenv("FAULT_SWEEP_TRACE")) std::printf("k %ld: %s\n", k, line.c_str());
    order.record(all.fired != 0.0);
    if (all.fired == 0.0) continue;
    ++tally.calls;
    std::string problem;
    if (impl == Impl::Native) {
      const int lowest = static_cast<int>(-all.negated_lowest_status), highest = static_cast<int>(all.highest_status);
      const int status = result.integers.back();
      if (lowest != highest) {
        problem = "ranks returned different statuses";
      } else if (status == 0) {
        if (!agrees(all.result, tolerance, result, reference)) problem = "WRONG RESULT";
        ++tally.outcomes["computed"];
      } else {
        // A failure: sub(A) or C must be as the caller gave it.
        if (!agrees(all.data, 0.0, data, untouched)) problem = "failed with the caller's data changed";
        ++tally.outcomes["failed, status " + std::to_string(status)];
      }
    } else {
      if (!agrees(all.result, tolerance, result, reference)) problem = "WRONG RESULT";
      if (my_rank == 0 && problem.empty()) problem = message_problem(line);
      if (my_rank == 0) ++tally.outcomes[outcome_of(line)];
    }
    if (my_rank == 0 && !problem.empty()) {
      std::printf("fault_sweep: %s, allocation %ld on rank %d: %s\n  %s\n", routine.c_str(), k, target,
                  problem.c_str(), line.c_str());
      sweep_failed = true;
    }
  }
  tally.sites = order.sites();
  return tally;
}

// The issue's reproducers, hit by construction (rank 0's tally; the message of each was
// checked call by call): PxGETRF and PxGEQRF failing at the compute stage's set-up (their
// pivots or τ), PxGEMM failing in its pricing (core::simulate_steps), PxPOTRF failing in its
// move-in, and the first routine swept on a fresh context (PxGEMM: ScaLAPACK's own PxGEMM
// calls no hetscal routine, so the context is set up inside the swept call) failing in the
// settings agreement. With the in-place route forced (HETSCAL_TAKE_OVER=in-place, swept for
// the routines that have one), PxGETRF, PxGEQRF and PxPOTRF failing in the kernel's agreed allocation,
// and, where every allocation fails on each rank in turn (a rotated sweep fails each on one rank
// only), in the route's own allocate stage: its overflow and its messages' requests (a request
// vector that grew during the move once hung the sweep). A sweep that no longer reaches one of
// them fails.
bool context_set_up_swept = false;

bool in_place_forced() {
  const char* mode = std::getenv("HETSCAL_TAKE_OVER");
  return mode != nullptr && std::string(mode) == "in-place";
}

void require_reproducers(const std::string& name, char routine, const Tally& tally) {
  const bool in_place = in_place_forced();
  std::vector<std::string> required;
  switch (routine) {
    case 'g': required = {"forwarded (price failed)"}; break;
    case 'l': case 'q': required = {"forwarded (compute failed)"}; break;
    case 'c': required = {"forwarded (move-in failed)"}; break;
    default: break;
  }
  // The in-place factorizations (issue 28) move no copy in: their own allocation stage and
  // the kernel's, each agreed, are what a rank short of memory fails.
  if (in_place && (routine == 'l' || routine == 'q' || routine == 'c')) {
    required = {"forwarded (compute failed)"};
    if (!rotate_ranks) required.push_back("forwarded (allocate failed)");
  }
  if (routine == 'g' && !context_set_up_swept) required.push_back("forwarded (agreement failed)");
  context_set_up_swept = true;
  for (const std::string& outcome : required) {
    if (tally.outcomes.count(outcome) == 0) {
      std::printf("fault_sweep: %s: no call ended \"%s\": the reproducer is not reached\n", name.c_str(),
                  outcome.c_str());
      sweep_failed = true;
    }
  }
}

template <typename T>
void sweep_routines(const Grid& grid, Impl impl, const std::string& routines, int n, CapturedStderr& captured) {
  const std::string p(1, static_cast<char>(std::toupper(prefix<T>())));
  for (char r : routines) {
    Call call;
    std::string name;
    int hetscal_routine = 0, m = n, k = 1;
    switch (r) {
      case 'g': call = gemm_call<T>(grid, n); name = "P" + p + "GEMM"; hetscal_routine = HETSCAL_ROUTINE_GEMM; k = n + 3; break;
      case 'l': call = getrf_call<T>(grid, n); name = "P" + p + "GETRF"; hetscal_routine = HETSCAL_ROUTINE_GETRF; m = n + 5; break;
      case 'q': call = geqrf_call<T>(grid, n); name = "P" + p + "GEQRF"; hetscal_routine = HETSCAL_ROUTINE_GEQRF; m = n + 5; break;
      case 'c': call = potrf_call<T>(grid, n); name = "P" + p + "POTRF"; hetscal_routine = HETSCAL_ROUTINE_POTRF; break;
      default: std::fprintf(stderr, "fault_sweep: unknown routine letter %c\n", r); std::exit(2);
    }
    hetscal_context_t context = HETSCAL_CONTEXT_NULL;
    if (impl == Impl::Native) {
      // The native API on ScaLAPACK descriptors plans with the grid's latest hetscal context.
      std::vector<double> speeds(static_cast<std::size_t>(ranks));
      for (int i = 0; i < ranks; ++i) speeds[static_cast<std::size_t>(i)] = i % 2 ? 1.0 : 3.0;
      if (hetscal_context_create(grid.context, speeds.data(), hetscal_routine, HETSCAL_LAYOUT_ANY, m, n, k,
                                 &context) != HETSCAL_SUCCESS) {
        std::fprintf(stderr, "fault_sweep: hetscal_context_create failed\n");
        std::exit(2);
      }
    }
    const double start = MPI_Wtime();
    const Tally tally = sweep<T>(name, impl, call, captured);
    if (context != HETSCAL_CONTEXT_NULL) hetscal_context_free(&context);
    if (my_rank != 0) continue;
    std::printf("fault_sweep: %s %s on %dx%d: %s per rank", name.c_str(),
                impl == Impl::Native ? "native" : "shim", grid.nprow, grid.npcol,
                rotate_ranks ? "last allocation failed (rotated)" : "allocation sites");
    for (long s : tally.sites) std::printf(" %ld", s);
    std::printf("; %ld calls with a failure, %.1f s:", tally.calls, MPI_Wtime() - start);
    for (const auto& [what, count] : tally.outcomes) std::printf(" %ld %s;", count, what.c_str());
    std::printf("\n");
    if (impl == Impl::Shim) require_reproducers(name, r, tally);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 5) {
    if (my_rank == 0) std::fprintf(stderr, "usage: fault_sweep shim|native PxQ ROUTINES PRECISIONS [N]\n");
    MPI_Finalize();
    return 2;
  }
  const Impl impl = std::string(argv[1]) == "native" ? Impl::Native : Impl::Shim;
  Grid grid;
  if (std::sscanf(argv[2], "%dx%d", &grid.nprow, &grid.npcol) != 2 || grid.nprow * grid.npcol != ranks) {
    if (my_rank == 0) std::fprintf(stderr, "fault_sweep: grid %s does not match %d ranks\n", argv[2], ranks);
    MPI_Finalize();
    return 2;
  }
  const std::string routines = argv[3], precisions = argv[4];
  const int n = argc > 5 ? std::atoi(argv[5]) : 40;
  const std::string order = argc > 6 ? argv[6] : "every";
  if (order != "every" && order != "reverse" && order != "rotate") {
    if (my_rank == 0) std::fprintf(stderr, "fault_sweep: order %s is not every, reverse or rotate\n", order.c_str());
    MPI_Finalize();
    return 2;
  }
  rotate_ranks = order == "rotate";
  reverse_ranks = order == "reverse";
  signal(SIGALRM, on_alarm);
  Cblacs_get(0, 0, &grid.context);
  Cblacs_gridinit(&grid.context, "R", grid.nprow, grid.npcol);
  Cblacs_gridinfo(grid.context, &grid.nprow, &grid.npcol, &grid.myrow, &grid.mycol);
  CapturedStderr captured;
  for (char p : precisions) {
    switch (p) {
      case 's': sweep_routines<float>(grid, impl, routines, n, captured); break;
      case 'd': sweep_routines<double>(grid, impl, routines, n, captured); break;
      case 'c': sweep_routines<std::complex<float>>(grid, impl, routines, n, captured); break;
      case 'z': sweep_routines<std::complex<double>>(grid, impl, routines, n, captured); break;
      default: std::fprintf(stderr, "fault_sweep: unknown precision %c\n", p); return 2;
    }
  }
  int failed = sweep_failed;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (my_rank == 0) std::printf("fault_sweep: %s\n", failed ? "FAILED" : "passed");
  Cblacs_gridexit(grid.context);
  MPI_Finalize();
  return failed ? 1 : 0;
}
