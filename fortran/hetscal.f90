!> @file hetscal.f90
!> @brief Fortran interface to hetscal's native C API (include/hetscal/hetscal.h).
!>
!> `use hetscal` gives the constants and bind(C) interfaces of hetscal.h. Contexts are
!> BLACS contexts from BLACS_GRIDINIT / BLACS_GRIDMAP; all indices are 1-based. Character
!> options are passed as one-character strings ('N', 'T', 'L'). Omit SPEEDS in
!> hetscal_context_create / hetscal_gemm_context_create for the configured speeds
!> (HETSCAL_SPEEDS) or measured ones. hetero_pdgetrf, hetero_pdgetrs, hetero_pdgeqrf,
!> hetero_pdormqr, hetero_pdpotrf and hetero_pdpotrs are functions: they return the
!> hetscal_status and set INFO as ScaLAPACK's PDGETRF / PDGETRS / PDGEQRF / PDORMQR /
!> PDPOTRF / PDPOTRS do (IPIV and TAU as hetscal.h describes them; no WORK or LWORK).
!>
!> The other precisions (hetero_psgemm, hetero_pcgemm, hetero_pzgemm, ..., hetero_pcunmqr,
!> hetscal_cscatter, ...) come from module hetscal_precisions, re-exported here. The generic
!> names hetero_gemm, hetero_getrf, hetero_getrs, hetero_geqrf, hetero_ormqr (PxORMQR for
!> real data, PxUNMQR for complex), hetero_potrf, hetero_potrs, hetscal_xscatter and
!> hetscal_xgather resolve to the precision of the arrays passed, so one source serves all four.
!> Character options are scalar CHARACTER dummies (C's `const char*`, first character read),
!> so that a literal such as 'N' also resolves a generic name.
module hetscal
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_char, c_long_long, c_ptr
  use hetscal_precisions
  implicit none
  private

  !> Return codes (hetscal_status) and INFO > 0 of hetero_pdgemm.
  integer(c_int), parameter, public :: HETSCAL_SUCCESS = 0, HETSCAL_ERR_ARGUMENT = 1, &
       HETSCAL_ERR_SPEEDS = 2, HETSCAL_ERR_NO_PLAN = 3, HETSCAL_ERR_CONTEXT = 4, &
       HETSCAL_ERR_UNSUPPORTED = 5, HETSCAL_ERR_INTERNAL = 6
  !> The null context handle, entries of a hetscal descriptor and its DTYPE.
  integer(c_int), parameter, public :: HETSCAL_CONTEXT_NULL = -1, HETSCAL_DESC_LEN = 9, &
       HETSCAL_DTYPE = 7301

  !> Routines a context is planned for (hetscal_routine) and kinds of layout (hetscal_layout).
  integer(c_int), parameter, public :: HETSCAL_ROUTINE_GEMM = 1, HETSCAL_ROUTINE_GETRF = 2, &
       HETSCAL_ROUTINE_GEQRF = 3, HETSCAL_ROUTINE_POTRF = 4
  integer(c_int), parameter, public :: HETSCAL_LAYOUT_ANY = 0, HETSCAL_LAYOUT_CARTESIAN = 1, &
       HETSCAL_LAYOUT_PATTERN = 2

  public :: hetscal_gemm_context_create, hetscal_context_create, hetscal_context_free, &
       hetscal_context_layout, hetscal_context_grid, &
       hetscal_context_tile, hetscal_context_participates, hetscal_context_prediction, &
       hetscal_local_rows, hetscal_local_cols, hetscal_global_row, hetscal_global_col, &
       hetscal_descinit, hetscal_local_elements, hetscal_tile_owner, hetscal_local_tile, &
       hetscal_scatter, hetscal_gather, hetero_pdgemm, hetero_pdgetrf, hetero_pdgetrs, &
       hetero_pdgeqrf, hetero_pdormqr, hetero_pdpotrf, hetero_pdpotrs, hetscal_info_failed, &
       hetscal_context_rebalance, hetscal_rebalanced_elements, hetscal_context_keep_balanced
  public :: hetscal_sscatter, hetscal_sgather, hetero_psgemm, hetero_psgetrf, hetero_psgetrs, &
       hetero_psgeqrf, hetero_psormqr, hetero_pspotrf, hetero_pspotrs
  public :: hetscal_cscatter, hetscal_cgather, hetero_pcgemm, hetero_pcgetrf, hetero_pcgetrs, &
       hetero_pcgeqrf, hetero_pcunmqr, hetero_pcpotrf, hetero_pcpotrs
  public :: hetscal_zscatter, hetscal_zgather, hetero_pzgemm, hetero_pzgetrf, hetero_pzgetrs, &
       hetero_pzgeqrf, hetero_pzunmqr, hetero_pzpotrf, hetero_pzpotrs
  public :: hetero_gemm, hetero_getrf, hetero_getrs, hetero_geqrf, hetero_ormqr, hetero_potrf, &
       hetero_potrs, hetscal_xscatter, hetscal_xgather

  !> What hetscal_context_rebalance did (hetscal_rebalance_report of hetscal.h).
  type, bind(C), public :: hetscal_rebalance_report
    integer(c_int) :: kept_structure, column_migrations, row_migrations
    integer(c_long_long) :: moved_elements, kept_elements, fresh_elements, total_elements
  end type

  interface
    integer(c_int) function hetscal_gemm_context_create(blacs_context, speeds, m, n, k, ctx) &
         bind(C, name="hetscal_gemm_context_create")
      import :: c_int, c_double
      integer(c_int), value :: blacs_context, m, n, k
      real(c_double), intent(in), optional :: speeds(*)
      integer(c_int), intent(out) :: ctx
    end function

    integer(c_int) function hetscal_context_create(blacs_context, speeds, routine, layout, &
         m, n, k, ctx) bind(C, name="hetscal_context_create")
      import :: c_int, c_double
      integer(c_int), value :: blacs_context, routine, layout, m, n, k
      real(c_double), intent(in), optional :: speeds(*)
      integer(c_int), intent(out) :: ctx
    end function

    integer(c_int) function hetscal_context_layout(ctx) bind(C, name="hetscal_context_layout")
      import :: c_int
      integer(c_int), value :: ctx
    end function

    integer(c_int) function hetscal_context_free(ctx) bind(C, name="hetscal_context_free")
      import :: c_int
      integer(c_int), intent(inout) :: ctx
    end function

    integer(c_int) function hetscal_context_grid(ctx, nprow, npcol, myrow, mycol) &
         bind(C, name="hetscal_context_grid")
      import :: c_int
      integer(c_int), value :: ctx
      integer(c_int), intent(out) :: nprow, npcol, myrow, mycol
    end function

    integer(c_int) function hetscal_context_tile(ctx) bind(C, name="hetscal_context_tile")
      import :: c_int
      integer(c_int), value :: ctx
    end function

    integer(c_int) function hetscal_context_participates(ctx) &
         bind(C, name="hetscal_context_participates")
      import :: c_int
      integer(c_int), value :: ctx
    end function

    integer(c_int) function hetscal_context_prediction(ctx, seconds, balance, speedup) &
         bind(C, name="hetscal_context_prediction")
      import :: c_int, c_double
      integer(c_int), value :: ctx
      real(c_double), intent(out) :: seconds, balance, speedup
    end function

    integer(c_int) function hetscal_local_rows(ctx, m) bind(C, name="hetscal_local_rows")
      import :: c_int
      integer(c_int), value :: ctx, m
    end function

    integer(c_int) function hetscal_local_cols(ctx, n) bind(C, name="hetscal_local_cols")
      import :: c_int
      integer(c_int), value :: ctx, n
    end function

    integer(c_int) function hetscal_global_row(ctx, m, local_row) bind(C, name="hetscal_global_row")
      import :: c_int
      integer(c_int), value :: ctx, m, local_row
    end function

    integer(c_int) function hetscal_global_col(ctx, n, local_col) bind(C, name="hetscal_global_col")
      import :: c_int
      integer(c_int), value :: ctx, n, local_col
    end function

    subroutine hetscal_descinit(desc, m, n, ctx, lld, info) bind(C, name="hetscal_descinit")
      import :: c_int
      integer(c_int), intent(out) :: desc(*)
      integer(c_int), value :: m, n, ctx, lld
      integer(c_int), intent(out) :: info
    end subroutine

    integer(c_long_long) function hetscal_local_elements(desc) &
         bind(C, name="hetscal_local_elements")
      import :: c_int, c_long_long
      integer(c_int), intent(in) :: desc(*)
    end function

    integer(c_int) function hetscal_tile_owner(desc, tile_row, tile_col) &
         bind(C, name="hetscal_tile_owner")
      import :: c_int
      integer(c_int), intent(in) :: desc(*)
      integer(c_int), value :: tile_row, tile_col
    end function

    !> INDEX and LD are set when the result is 1 (this process owns the tile).
    integer(c_int) function hetscal_local_tile(desc, tile_row, tile_col, index, ld) &
         bind(C, name="hetscal_local_tile")
      import :: c_int, c_long_long
      integer(c_int), intent(in) :: desc(*)
      integer(c_int), value :: tile_row, tile_col
      integer(c_long_long), intent(out) :: index
      integer(c_int), intent(out) :: ld
    end function

    subroutine hetscal_scatter(m, n, a, ia, ja, desca, h, desch, info) &
         bind(C, name="hetscal_scatter")
      import :: c_int, c_double
      integer(c_int), value :: m, n, ia, ja
      real(c_double), intent(in) :: a(*)
      integer(c_int), intent(in) :: desca(*), desch(*)
      real(c_double), intent(inout) :: h(*)
      integer(c_int), intent(out) :: info
    end subroutine

    subroutine hetscal_gather(m, n, a, ia, ja, desca, h, desch, info) &
         bind(C, name="hetscal_gather")
      import :: c_int, c_double
      integer(c_int), value :: m, n, ia, ja
      real(c_double), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*), desch(*)
      real(c_double), intent(in) :: h(*)
      integer(c_int), intent(out) :: info
    end subroutine

    subroutine hetero_pdgemm(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, &
         beta, c, ic, jc, descc, info) bind(C, name="hetero_pdgemm")
      import :: c_int, c_double, c_char
      character(kind=c_char), intent(in) :: transa, transb
      integer(c_int), value :: m, n, k, ia, ja, ib, jb, ic, jc
      real(c_double), value :: alpha, beta
      ! inout: A and B are read only, but when registered with hetscal_context_keep_balanced
      ! the call may first move them to a layout balanced for new speeds (hetscal.h).
      real(c_double), intent(inout) :: a(*), b(*)
      real(c_double), intent(inout) :: c(*)
      integer(c_int), intent(in) :: desca(*), descb(*), descc(*)
      integer(c_int), intent(out) :: info
    end subroutine

    integer(c_int) function hetero_pdgetrf(m, n, a, ia, ja, desca, ipiv, info) &
         bind(C, name="hetero_pdgetrf")
      import :: c_int, c_double
      integer(c_int), value :: m, n, ia, ja
      real(c_double), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(inout) :: ipiv(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pdgetrs(trans, n, nrhs, a, ia, ja, desca, ipiv, b, ib, jb, &
         descb, info) bind(C, name="hetero_pdgetrs")
      import :: c_int, c_double, c_char
      character(kind=c_char), intent(in) :: trans
      integer(c_int), value :: n, nrhs, ia, ja, ib, jb
      real(c_double), intent(in) :: a(*)
      integer(c_int), intent(in) :: desca(*), ipiv(*), descb(*)
      real(c_double), intent(inout) :: b(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pdgeqrf(m, n, a, ia, ja, desca, tau, info) &
         bind(C, name="hetero_pdgeqrf")
      import :: c_int, c_double
      integer(c_int), value :: m, n, ia, ja
      real(c_double), intent(inout) :: a(*), tau(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pdormqr(side, trans, m, n, k, a, ia, ja, desca, tau, c, &
         ic, jc, descc, info) bind(C, name="hetero_pdormqr")
      import :: c_int, c_double, c_char
      character(kind=c_char), intent(in) :: side, trans
      integer(c_int), value :: m, n, k, ia, ja, ic, jc
      real(c_double), intent(in) :: a(*), tau(*)
      integer(c_int), intent(in) :: desca(*), descc(*)
      real(c_double), intent(inout) :: c(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pdpotrf(uplo, n, a, ia, ja, desca, info) &
         bind(C, name="hetero_pdpotrf")
      import :: c_int, c_double, c_char
      character(kind=c_char), intent(in) :: uplo
      integer(c_int), value :: n, ia, ja
      real(c_double), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pdpotrs(uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, &
         info) bind(C, name="hetero_pdpotrs")
      import :: c_int, c_double, c_char
      character(kind=c_char), intent(in) :: uplo
      integer(c_int), value :: n, nrhs, ia, ja, ib, jb
      real(c_double), intent(in) :: a(*)
      real(c_double), intent(inout) :: b(*)
      integer(c_int), intent(in) :: desca(*), descb(*)
      integer(c_int), intent(out) :: info
    end function
    !> Rebalances the context and its matrices for new speeds (omit NEW_SPEEDS for the
    !> adaptive estimates). ARRAYS(k) = c_loc(A_k(1)) and DESCS(k) = c_loc(DESC_k(1)) of
    !> TARGET arrays; each A_k allocated with CAPACITIES(k) >= max(its old local size,
    !> hetscal_rebalanced_elements(...)); each DESC_k's LLD (and MB, NB) updated.
    integer(c_int) function hetscal_context_rebalance(ctx, new_speeds, nmatrices, arrays, &
         capacities, descs, report) bind(C, name="hetscal_context_rebalance")
      import :: c_int, c_double, c_long_long, c_ptr, hetscal_rebalance_report
      integer(c_int), value :: ctx, nmatrices
      real(c_double), intent(in), optional :: new_speeds(*)
      type(c_ptr), intent(in) :: arrays(*), descs(*)
      integer(c_long_long), intent(in) :: capacities(*)
      type(hetscal_rebalance_report), intent(out) :: report
    end function

    !> Keeps matrices of CTX balanced: when the speeds learnt at run time call for it, a
    !> native call whose operands are all registered first moves them all with the context
    !> (as hetscal_context_rebalance with the estimates). ARRAYS(k) = c_loc(A_k(1)),
    !> DESCS(k) = c_loc(DESC_k(1)) of TARGET arrays that stay allocated while registered, and
    !> the call must pass those same arrays; CAPACITIES(k) the room of A_k. NMATRICES = 0
    !> stops it. Collective; status codes as hetscal_context_rebalance's.
    integer(c_int) function hetscal_context_keep_balanced(ctx, nmatrices, arrays, capacities, &
         descs) bind(C, name="hetscal_context_keep_balanced")
      import :: c_int, c_long_long, c_ptr
      integer(c_int), value :: ctx, nmatrices
      type(c_ptr), intent(in) :: arrays(*), descs(*)
      integer(c_long_long), intent(in) :: capacities(*)
    end function

    !> Local elements an M x N matrix of CTX needs after hetscal_context_rebalance with the
    !> same NEW_SPEEDS (collective); -1 on error.
    integer(c_long_long) function hetscal_rebalanced_elements(ctx, new_speeds, m, n) &
         bind(C, name="hetscal_rebalanced_elements")
      import :: c_int, c_double, c_long_long
      integer(c_int), value :: ctx, m, n
      real(c_double), intent(in), optional :: new_speeds(*)
    end function
  end interface

  !> The four precisions under one name each, resolved by the type of the arrays.
  interface hetero_gemm
    procedure hetero_psgemm, hetero_pdgemm, hetero_pcgemm, hetero_pzgemm
  end interface
  interface hetero_getrf
    procedure hetero_psgetrf, hetero_pdgetrf, hetero_pcgetrf, hetero_pzgetrf
  end interface
  interface hetero_getrs
    procedure hetero_psgetrs, hetero_pdgetrs, hetero_pcgetrs, hetero_pzgetrs
  end interface
  interface hetero_geqrf
    procedure hetero_psgeqrf, hetero_pdgeqrf, hetero_pcgeqrf, hetero_pzgeqrf
  end interface
  interface hetero_ormqr
    procedure hetero_psormqr, hetero_pdormqr, hetero_pcunmqr, hetero_pzunmqr
  end interface
  interface hetero_potrf
    procedure hetero_pspotrf, hetero_pdpotrf, hetero_pcpotrf, hetero_pzpotrf
  end interface
  interface hetero_potrs
    procedure hetero_pspotrs, hetero_pdpotrs, hetero_pcpotrs, hetero_pzpotrs
  end interface
  interface hetscal_xscatter
    procedure hetscal_sscatter, hetscal_scatter, hetscal_cscatter, hetscal_zscatter
  end interface
  interface hetscal_xgather
    procedure hetscal_sgather, hetscal_gather, hetscal_cgather, hetscal_zgather
  end interface

contains

  !> INFO of hetero_pdpotrf / hetero_pdpotrs when hetscal could not compute (the C macro
  !> HETSCAL_INFO_FAILED): below every argument code.
  pure integer(c_int) function hetscal_info_failed(status)
    integer(c_int), intent(in) :: status
    hetscal_info_failed = -1000_c_int - status
  end function
end module hetscal
