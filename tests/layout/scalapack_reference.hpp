#pragma once
/// @file scalapack_reference.hpp
/// ScaLAPACK's and PBLAS's own index tools and checkers, as exported by libscalapack-openmpi
/// (no header ships with them). The layout tests compare hetscal's arithmetic with these.
/// Fortran routines take every argument by pointer and use 1-based indices; PBLAS's C tools
/// take values and use 0-based indices. The BLACS and the TOOLS index functions a plain
/// ScaLAPACK program calls are in tests/support/scalapack_abi.hpp.
#include "scalapack_abi.hpp"

extern "C" {
// ScaLAPACK TOOLS (Fortran), beyond the index functions.
void chk1mat_(const int* ma, const int* mapos0, const int* na, const int* napos0, const int* ia,
              const int* ja, const int* desca, const int* descapos0, int* info);

// PBLAS tools (C, 0-based, 11-entry descriptors).
int PB_Cnumroc(int n, int i, int inb, int nb, int proc, int srcproc, int nprocs);
int PB_Cindxg2p(int ig, int inb, int nb, int proc, int srcproc, int nprocs);
int PB_Cfirstnb(int n, int i, int inb, int nb);
void PB_Cinfog2l(int i, int j, int* desc, int nprow, int npcol, int myrow, int mycol, int* ii,
                 int* jj, int* prow, int* pcol);
void PB_CargFtoC(int if_, int jf, int* descin, int* ic, int* jc, int* descout);
void PB_Cchkmat(int ictxt, char* rout, char* mname, int m, int mpos0, int n, int npos0, int ia,
                int ja, int* desca, int dpos0, int* info);

// BLACS (C interface), beyond what a PDGEMM program needs.
void Cblacs_exit(int not_done);
}
