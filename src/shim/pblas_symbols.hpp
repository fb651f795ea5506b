#pragma once
/// @file pblas_symbols.hpp
/// The ScaLAPACK/PBLAS/BLACS C entry points the shim calls. They are resolved normally (not
/// with dlsym), so that a program's own definitions win: PBLAS's testers define PB_Cabort to
/// catch error exits, and must catch hetscal's too.

extern "C" {
/// PBLAS's error exit: prints "{row,col}: On entry to ROUT parameter number -info had an
/// illegal value" and aborts the context's processes (unless a tester overrides it).
void PB_Cabort(int context, const char* routine, int info);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
/// Aborts every process of the context's grid (what PB_Cabort does after printing).
void Cblacs_abort(int context, int error_code);
}
