#pragma once
/// @file scalapack_abi.hpp
/// The BLACS (C interface), PBLAS, ScaLAPACK and TOOLS (Fortran ABI) routines a plain
/// ScaLAPACK program calls, declared once for every test and benchmark program that plays
/// such a program: they link ScaLAPACK only and know nothing of hetscal, which is preloaded.

#include <mpi.h>

#include <complex>

extern "C" {
void Cblacs_pinfo(int* rank, int* size);
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
int indxg2p_(const int* indxglob, const int* nb, const int* iproc, const int* isrcproc,
             const int* nprocs);
int indxg2l_(const int* indxglob, const int* nb, const int* iproc, const int* isrcproc,
             const int* nprocs);
int indxl2g_(const int* indxloc, const int* nb, const int* iproc, const int* isrcproc,
             const int* nprocs);
void psgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const float* alpha, const float* a, const int* ia, const int* ja, const int* desca,
             const float* b, const int* ib, const int* jb, const int* descb, const float* beta,
             float* c, const int* ic, const int* jc, const int* descc);
void pcgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const std::complex<float>* alpha, const std::complex<float>* a, const int* ia,
             const int* ja, const int* desca, const std::complex<float>* b, const int* ib,
             const int* jb, const int* descb, const std::complex<float>* beta,
             std::complex<float>* c, const int* ic, const int* jc, const int* descc);
void pzgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const std::complex<double>* alpha, const std::complex<double>* a, const int* ia,
             const int* ja, const int* desca, const std::complex<double>* b, const int* ib,
             const int* jb, const int* descb, const std::complex<double>* beta,
             std::complex<double>* c, const int* ic, const int* jc, const int* descc);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
             const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
             double* c, const int* ic, const int* jc, const int* descc);
void pdpotrf_(const char* uplo, const int* n, double* a, const int* ia, const int* ja,
              const int* desca, int* info);
void pspotrf_(const char* uplo, const int* n, float* a, const int* ia, const int* ja,
              const int* desca, int* info);
// COMPLEX and COMPLEX*16 arrays as std::complex<float> and std::complex<double> (the same
// layout: real part first).
void pcpotrf_(const char* uplo, const int* n, std::complex<float>* a, const int* ia, const int* ja,
              const int* desca, int* info);
void pzpotrf_(const char* uplo, const int* n, std::complex<double>* a, const int* ia, const int* ja,
              const int* desca, int* info);
void psgetrf_(const int* m, const int* n, float* a, const int* ia, const int* ja,
              const int* desca, int* ipiv, int* info);
void pdgetrf_(const int* m, const int* n, double* a, const int* ia, const int* ja,
              const int* desca, int* ipiv, int* info);
void pcgetrf_(const int* m, const int* n, std::complex<float>* a, const int* ia, const int* ja,
              const int* desca, int* ipiv, int* info);
void pzgetrf_(const int* m, const int* n, std::complex<double>* a, const int* ia, const int* ja,
              const int* desca, int* ipiv, int* info);
void psgeqrf_(const int* m, const int* n, float* a, const int* ia, const int* ja,
              const int* desca, float* tau, float* work, const int* lwork, int* info);
void pdgeqrf_(const int* m, const int* n, double* a, const int* ia, const int* ja,
              const int* desca, double* tau, double* work, const int* lwork, int* info);
void pcgeqrf_(const int* m, const int* n, std::complex<float>* a, const int* ia, const int* ja,
              const int* desca, std::complex<float>* tau, std::complex<float>* work,
              const int* lwork, int* info);
void pzgeqrf_(const int* m, const int* n, std::complex<double>* a, const int* ia, const int* ja,
              const int* desca, std::complex<double>* tau, std::complex<double>* work,
              const int* lwork, int* info);
}

/// PxGETRF, PxGEQRF and PxPOTRF of the precision of their arguments, for code templated on the scalar
/// type (float, double, std::complex<float>, std::complex<double>).
namespace scalapack_overloads {
template <typename T>
using Getrf = void (*)(const int*, const int*, T*, const int*, const int*, const int*, int*, int*);
template <typename T>
using Geqrf = void (*)(const int*, const int*, T*, const int*, const int*, const int*, T*, T*,
                       const int*, int*);
template <typename T>
using Potrf = void (*)(const char*, const int*, T*, const int*, const int*, const int*, int*);
inline Getrf<float> getrf(float*) { return psgetrf_; }
inline Getrf<double> getrf(double*) { return pdgetrf_; }
inline Getrf<std::complex<float>> getrf(std::complex<float>*) { return pcgetrf_; }
inline Getrf<std::complex<double>> getrf(std::complex<double>*) { return pzgetrf_; }
inline Geqrf<float> geqrf(float*) { return psgeqrf_; }
inline Geqrf<double> geqrf(double*) { return pdgeqrf_; }
inline Geqrf<std::complex<float>> geqrf(std::complex<float>*) { return pcgeqrf_; }
inline Geqrf<std::complex<double>> geqrf(std::complex<double>*) { return pzgeqrf_; }
inline Potrf<float> potrf(float*) { return pspotrf_; }
inline Potrf<double> potrf(double*) { return pdpotrf_; }
inline Potrf<std::complex<float>> potrf(std::complex<float>*) { return pcpotrf_; }
inline Potrf<std::complex<double>> potrf(std::complex<double>*) { return pzpotrf_; }
}  // namespace scalapack_overloads
