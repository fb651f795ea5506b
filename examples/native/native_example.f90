! What the native Fortran examples share: a BLACS grid of every process, the order N from
! the command line, and the map from a local array's entries to the global elements they
! hold (the tile queries read once, so that filling and checking are plain loops).
module native_example
  use hetscal, only: HETSCAL_DESC_LEN, HETSCAL_SUCCESS, hetscal_local_elements, &
       hetscal_local_tile, hetscal_local_rows, hetscal_descinit, hetscal_context_create, &
       hetscal_context_free
  use mpi, only: MPI_COMM_WORLD, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_Abort, MPI_Allreduce, &
       MPI_Finalize
  use, intrinsic :: iso_c_binding, only: c_long_long
  implicit none
  private
  public :: example_grid, order_argument, element_map, example_context, descinit_local, &
       solution_error, example_finish

contains

  ! A 'Row' BLACS grid of every process, as square as their count allows.
  subroutine example_grid(me, procs, ictxt)
    integer, intent(out) :: me, procs, ictxt
    integer :: nprow, r
    call blacs_pinfo(me, procs)
    nprow = 1
    do r = 1, procs
      if (r * r <= procs .and. mod(procs, r) == 0) nprow = r
    end do
    call blacs_get(-1, 0, ictxt)
    call blacs_gridinit(ictxt, 'Row', nprow, procs / nprow)
  end subroutine

  ! A context of `routine` and `layout` for an N x N matrix with speeds 1, 2, ..., P; the job
  ! stops when it cannot be planned.
  integer function example_context(ictxt, procs, routine, layout, n) result(ctx)
    integer, intent(in) :: ictxt, procs, routine, layout, n
    integer :: status, r, ierr
    status = hetscal_context_create(ictxt, [(dble(r), r = 1, procs)], routine, layout, n, n, &
         0, ctx)
    if (status /= HETSCAL_SUCCESS) then
      print *, 'hetscal_context_create failed:', status
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end function

  ! The first command-line argument, else `default`.
  integer function order_argument(default)
    integer, intent(in) :: default
    character(len=16) :: arg
    order_argument = default
    if (command_argument_count() >= 1) then
      call get_command_argument(1, arg); read (arg, *) order_argument
    end if
  end function

  ! Global row and column (1-based) of each element of the local array of `desc`, 0 for
  ! padding.
  subroutine element_map(desc, rows, cols)
    integer, intent(in) :: desc(HETSCAL_DESC_LEN)
    integer, allocatable, intent(out) :: rows(:), cols(:)
    integer :: ti, tj, i, j, ld, tile
    integer(c_long_long) :: index, k
    allocate (rows(max(1_c_long_long, hetscal_local_elements(desc))), source=0)
    allocate (cols(size(rows)), source=0)
    tile = desc(5)
    do tj = 1, (desc(4) + tile - 1) / tile
      do ti = 1, (desc(3) + tile - 1) / tile
        if (hetscal_local_tile(desc, ti, tj, index, ld) /= 1) cycle
        do j = (tj - 1) * tile + 1, min(tj * tile, desc(4))
          do i = (ti - 1) * tile + 1, min(ti * tile, desc(3))
            k = index + (i - (ti - 1) * tile - 1) + (j - (tj - 1) * tile - 1) * ld
            rows(k) = i
            cols(k) = j
          end do
        end do
      end do
    end do
  end subroutine

  ! A rows x cols matrix of context ctx: its descriptor and a local array of the size it needs.
  subroutine descinit_local(ctx, desc, rows, cols, x)
    integer, intent(in) :: ctx, rows, cols
    integer, intent(out) :: desc(HETSCAL_DESC_LEN)
    double precision, allocatable, intent(out) :: x(:)
    integer :: info
    ! LLD: LOCr on a Cartesian grid; on a pattern (-1 there) it is unused
    call hetscal_descinit(desc, rows, cols, ctx, max(1, hetscal_local_rows(ctx, rows)), info)
    allocate (x(max(1_c_long_long, hetscal_local_elements(desc))))
  end subroutine

  ! The forward error of the examples' N x NRHS solution X(i,j) = i + j (cond(A) = 2), the
  ! same on every process: max |X - X_true| / (N (N + NRHS) eps); huge when not `solved`.
  double precision function solution_error(x, desc, solved)
    double precision, intent(in) :: x(:)
    integer, intent(in) :: desc(HETSCAL_DESC_LEN)
    logical, intent(in) :: solved
    integer, allocatable :: rows(:), cols(:)
    integer :: k, ierr
    double precision :: error
    call element_map(desc, rows, cols)
    error = 0d0
    do k = 1, size(rows)
      if (rows(k) > 0) error = max(error, abs(x(k) - dble(rows(k) + cols(k))))
    end do
    if (.not. solved) error = huge(1d0)
    call MPI_Allreduce(error, solution_error, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, &
         ierr)
    solution_error = solution_error / (dble(desc(3)) * dble(desc(3) + desc(4)) * epsilon(1d0))
  end function

  ! Process 0 prints the verdict; the context, the grid and MPI are closed.
  subroutine example_finish(me, passed, ctx, ictxt)
    integer, intent(in) :: me, ictxt
    logical, intent(in) :: passed
    integer, intent(inout) :: ctx
    integer :: status, ierr
    if (me == 0 .and. passed) print *, 'PASSED'
    if (me == 0 .and. .not. passed) print *, 'FAILED'
    status = hetscal_context_free(ctx)
    call blacs_gridexit(ictxt)
    call MPI_Finalize(ierr)
  end subroutine

end module native_example
