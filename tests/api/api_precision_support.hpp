#pragma once
// Shared by the native API tests in S, D, C and Z (api_precisions_test.cpp): the C entry points
// of each precision behind one overloaded name per routine (so that a typed test calls
// hetero_psgemm, hetero_pcgemm or hetero_pzgemm by its element type), reproducible random
// matrices of any element type, and the oracles' arithmetic, done in complex double whatever
// the precision under test so that it adds no error of that precision.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "api_lu_support.hpp"
#include "api_test_support.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::api_test {

using Wide = std::complex<double>;
using WideMatrix = std::vector<Wide>;  ///< column-major, dimensions kept by the caller

template <typename T>
using real_t = kernels::real_of_t<T>;
template <typename T>
inline constexpr bool kComplex = kernels::is_complex_v<T>;

/// The machine epsilon of T's precision.
template <typename T>
double eps() {
  return static_cast<double>(std::numeric_limits<real_t<T>>::epsilon());
}

/// The TRANS letter of the adjoint: "C" for complex (Aᴴ), "T" for real.
template <typename T>
const char* adjoint_letter() {
  return kComplex<T> ? "C" : "T";
}

/// Element (i, j) of random matrix `which` in T: real and imaginary parts in [-1, 1), drawn
/// independently (the imaginary part from matrix which + 1000).
template <typename T>
T random_scalar(int which, int i, int j) {
  const double re = random_element(which, i, j);
  if constexpr (kComplex<T>) {
    return T(static_cast<real_t<T>>(re),
             static_cast<real_t<T>>(random_element(which + 1000, i, j)));
  } else {
    return static_cast<T>(re);
  }
}

template <typename T>
std::vector<T> random_of(int which, int rows, int cols) {
  std::vector<T> a(static_cast<std::size_t>(rows) * cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      a[j * static_cast<std::size_t>(rows) + i] = random_scalar<T>(which, i, j);
  return a;
}

template <typename T>
WideMatrix widen(const std::vector<T>& x) {
  WideMatrix w(x.size());
  std::transform(x.begin(), x.end(), w.begin(), [](T v) { return Wide(v); });
  return w;
}

template <typename T>
std::vector<T> narrow(const WideMatrix& w) {
  std::vector<T> x(w.size());
  if constexpr (kComplex<T>) {
    std::transform(w.begin(), w.end(), x.begin(), [](Wide v) { return T(v); });
  } else {
    std::transform(w.begin(), w.end(), x.begin(), [](Wide v) { return static_cast<T>(v.real()); });
  }
  return x;
}

/// Element (i, j) of op(X), X column-major with `rows` rows; op from its TRANS letter.
inline Wide op_element(const WideMatrix& x, int rows, char trans, int i, int j) {
  if (trans == 'N') return x[j * static_cast<std::size_t>(rows) + i];
  const Wide v = x[i * static_cast<std::size_t>(rows) + j];
  return trans == 'C' ? std::conj(v) : v;
}

/// op(A)·op(B), M×N, inner dimension K; A has a_rows rows, B b_rows rows.
inline WideMatrix product(char ta, char tb, int m, int n, int k, const WideMatrix& a, int a_rows,
                          const WideMatrix& b, int b_rows) {
  WideMatrix out(static_cast<std::size_t>(m) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      Wide sum = 0.0;
      for (int l = 0; l < k; ++l)
        sum += op_element(a, a_rows, ta, i, l) * op_element(b, b_rows, tb, l, j);
      out[j * static_cast<std::size_t>(m) + i] = sum;
    }
  return out;
}

inline double frobenius(const WideMatrix& x) {
  double sum = 0.0;
  for (const Wide v : x) sum += std::norm(v);
  return std::sqrt(sum);
}

/// ‖X − Y‖_F.
inline double distance(const WideMatrix& x, const WideMatrix& y) {
  WideMatrix d(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) d[i] = x[i] - y[i];
  return frobenius(d);
}

// The C entry points of each precision under one name per routine
// (hetscal descriptors or ScaLAPACK ones alike; complex ALPHA and BETA by pointer, as the C
// interface takes them).
#define HETSCAL_TEST_ENTRIES(T, P, SCATTER, GATHER, ORMQR)                                       \
  inline void scatter(int m, int n, const T* a, const int* desca, T* h, const int* desch,        \
                      int* info) {                                                               \
    SCATTER(m, n, a, 1, 1, desca, h, desch, info);                                               \
  }                                                                                              \
  inline void gather(int m, int n, T* a, const int* desca, const T* h, const int* desch,         \
                     int* info) {                                                                \
    GATHER(m, n, a, 1, 1, desca, h, desch, info);                                                \
  }                                                                                              \
  inline int getrf(int m, int n, T* a, const int* desca, int* ipiv, int* info) {                 \
    return hetero_p##P##getrf(m, n, a, 1, 1, desca, ipiv, info);                                 \
  }                                                                                              \
  inline int getrs(const char* trans, int n, int nrhs, const T* a, const int* desca,             \
                   const int* ipiv, T* b, const int* descb, int* info) {                         \
    return hetero_p##P##getrs(trans, n, nrhs, a, 1, 1, desca, ipiv, b, 1, 1, descb, info);       \
  }                                                                                              \
  inline int potrf(const char* uplo, int n, T* a, int ia, int ja, const int* desca, int* info) { \
    return hetero_p##P##potrf(uplo, n, a, ia, ja, desca, info);                                  \
  }                                                                                              \
  inline int potrs(const char* uplo, int n, int nrhs, const T* a, const int* desca, T* b,        \
                   const int* descb, int* info) {                                                \
    return hetero_p##P##potrs(uplo, n, nrhs, a, 1, 1, desca, b, 1, 1, descb, info);              \
  }                                                                                              \
  inline int geqrf(int m, int n, T* a, const int* desca, T* tau, int* info) {                    \
    return hetero_p##P##geqrf(m, n, a, 1, 1, desca, tau, info);                                  \
  }                                                                                              \
  inline int ormqr(const char* side, const char* trans, int m, int n, int k, const T* a,         \
                   const int* desca, const T* tau, T* c, const int* descc, int* info) {          \
    return ORMQR(side, trans, m, n, k, a, 1, 1, desca, tau, c, 1, 1, descc, info);               \
  }
HETSCAL_TEST_ENTRIES(float, s, hetscal_sscatter, hetscal_sgather, hetero_psormqr)
HETSCAL_TEST_ENTRIES(double, d, hetscal_scatter, hetscal_gather, hetero_pdormqr)
HETSCAL_TEST_ENTRIES(std::complex<float>, c, hetscal_cscatter, hetscal_cgather, hetero_pcunmqr)
HETSCAL_TEST_ENTRIES(std::complex<double>, z, hetscal_zscatter, hetscal_zgather, hetero_pzunmqr)
#undef HETSCAL_TEST_ENTRIES

inline void gemm(const char* ta, const char* tb, int m, int n, int k, float alpha, const float* a,
                 const int* da, const float* b, const int* db, float beta, float* c, const int* dc,
                 int* info) {
  hetero_psgemm(ta, tb, m, n, k, alpha, a, 1, 1, da, b, 1, 1, db, beta, c, 1, 1, dc, info);
}
inline void gemm(const char* ta, const char* tb, int m, int n, int k, double alpha, const double* a,
                 const int* da, const double* b, const int* db, double beta, double* c,
                 const int* dc, int* info) {
  hetero_pdgemm(ta, tb, m, n, k, alpha, a, 1, 1, da, b, 1, 1, db, beta, c, 1, 1, dc, info);
}
inline void gemm(const char* ta, const char* tb, int m, int n, int k, std::complex<float> alpha,
                 const std::complex<float>* a, const int* da, const std::complex<float>* b,
                 const int* db, std::complex<float> beta, std::complex<float>* c, const int* dc,
                 int* info) {
  hetero_pcgemm(ta, tb, m, n, k, &alpha, a, 1, 1, da, b, 1, 1, db, &beta, c, 1, 1, dc, info);
}
inline void gemm(const char* ta, const char* tb, int m, int n, int k, std::complex<double> alpha,
                 const std::complex<double>* a, const int* da, const std::complex<double>* b,
                 const int* db, std::complex<double> beta, std::complex<double>* c, const int* dc,
                 int* info) {
  hetero_pzgemm(ta, tb, m, n, k, &alpha, a, 1, 1, da, b, 1, 1, db, &beta, c, 1, 1, dc, info);
}

/// A context of every rank (rising speeds, the layout the planner prefers) for `routine`,
/// planned for at least 8 tiles per rank in each dimension so that every grid of the ranks
/// fits.
struct PlannedContext : FactorContext {
  PlannedContext(const BlacsGrid& grid, int routine, int m, int n, int k = 1)
      : FactorContext(grid, routine, HETSCAL_LAYOUT_ANY, std::max(m, 8 * world_size()),
                      std::max(n, 8 * world_size()), k) {}
};

/// A matrix of T in a context's layout: its descriptor and this process's local array.
template <typename T>
struct InLayout {
  std::vector<int> desc;
  std::vector<T> local;
  InLayout(const PlannedContext& c, const std::vector<T>& whole, int m, int n)
      : desc(c.desc(m, n)), local(local_of(desc.data(), whole)) {}
  std::vector<T> whole() const { return whole_of(desc.data(), local); }
};

}  // namespace hetscal::api_test
