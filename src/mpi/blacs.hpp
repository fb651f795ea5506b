#pragma once
/// @file blacs.hpp
/// The BLACS C entry points hetscal calls (Debian's ScaLAPACK carries BLACS; it ships no
/// header, so the prototypes are declared here). Private to mpi/ and its tests: the rest of
/// hetscal reaches BLACS only through mpi::ContextInfo.
///
/// Semantics relied upon (reference BLACS, MPI flavour):
/// - Cblacs_get(ctxt, 10, &h) returns a system handle of the context's own communicator,
///   which Cblacs2sys_handle(h) turns into the MPI_Comm. That communicator's ranks are the
///   grid positions in row-major order, whatever the mapping the grid was built with.
/// - Cblacs_pnum(ctxt, prow, pcol) is the rank of (prow, pcol) in that communicator (not in
///   MPI_COMM_WORLD); -1 outside the grid.
/// - Cblacs_gridexit(ctxt) frees that communicator (MPI_Comm_free runs attribute delete
///   callbacks: this is how hetscal's per-context cache dies with the context).
#include <mpi.h>

extern "C" {
void Cblacs_pinfo(int* mypnum, int* nprocs);
void Cblacs_get(int context, int what, int* value);
MPI_Comm Cblacs2sys_handle(int system_handle);
int Csys2blacs_handle(MPI_Comm comm);
int Cblacs_pnum(int context, int prow, int pcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridexit(int context);
}

namespace hetscal::mpi::blacs {

/// Cblacs_get's WHAT that yields the context's communicator (SGET_BLACSCONTXT).
constexpr int kGetContextCommunicator = 10;
/// Cblacs_get's WHAT that yields the default system context (SGET_SYSCONTXT).
constexpr int kGetSystemContext = 0;

}  // namespace hetscal::mpi::blacs
