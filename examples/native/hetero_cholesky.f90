! New Fortran code on hetscal's native API (module hetscal): a context planned for a Cholesky
! factorisation on a pattern layout (U factor this time), A and B filled through the tile
! queries, hetero_pdpotrf then hetero_pdpotrs, the solution checked against its closed form;
! then a matrix that is not positive definite at order 5 must give INFO = 5.
!
!   mpirun -np 4 hetero_cholesky_f90 [N]      (speeds 1, 2, ..., P)
program hetero_cholesky
  use hetscal
  use mpi
  use, intrinsic :: iso_c_binding, only: c_long_long
  implicit none
  integer, parameter :: nrhs = 2
  integer :: me, procs, ictxt, nprow, r, n, ctx, status, info, ierr, not_pd_info
  integer :: desca(HETSCAL_DESC_LEN), descb(HETSCAL_DESC_LEN)
  double precision, allocatable :: speeds(:), a(:), b(:)
  double precision :: error, worst, residual
  character(len=16) :: arg

  call MPI_Init(ierr)
  call blacs_pinfo(me, procs)
  nprow = 1
  do r = 1, procs
    if (r * r <= procs .and. mod(procs, r) == 0) nprow = r
  end do
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, 'Row', nprow, procs / nprow)
  n = 200
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *) n
  end if
  speeds = [(dble(r), r = 1, procs)]

  status = hetscal_context_create(ictxt, speeds, HETSCAL_ROUTINE_POTRF, HETSCAL_LAYOUT_PATTERN, &
       n, n, 0, ctx)
  if (status /= HETSCAL_SUCCESS) then
    print *, 'hetscal_context_create failed:', status
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  call descinit_local(desca, n, n, a)
  call descinit_local(descb, n, nrhs, b)
  call fill(a, desca, 0, 0)
  call fill(b, descb, 1, 0)
  status = hetero_pdpotrf('U', n, a, 1, 1, desca, info)
  if (status == HETSCAL_SUCCESS .and. info == 0) &
       status = hetero_pdpotrs('U', n, nrhs, a, 1, 1, desca, b, 1, 1, descb, info)
  error = 0d0
  if (status /= HETSCAL_SUCCESS .or. info /= 0) error = huge(1d0)
  call max_error(b, descb, error)
  call MPI_Allreduce(error, worst, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  residual = worst / (dble(n) * dble(n + nrhs) * epsilon(1d0))

  call fill(a, desca, 0, 5)  ! the leading minor of order 5 is not positive definite
  status = hetero_pdpotrf('U', n, a, 1, 1, desca, not_pd_info)
  if (me == 0) then
    print '("pattern ",i0," processes, N=",i0,": status ",i0,", INFO ",i0,", error ",es10.3, &
         &", INFO for a matrix not positive definite at order 5: ",i0)', procs, n, status, info, &
         residual, not_pd_info
    if (residual < 10d0 .and. not_pd_info == 5) then
      print *, 'PASSED'
    else
      print *, 'FAILED'
    end if
  end if
  status = hetscal_context_free(ctx)
  call blacs_gridexit(ictxt)
  call MPI_Finalize(ierr)

contains

  subroutine descinit_local(desc, rows, cols, x)
    integer, intent(out) :: desc(HETSCAL_DESC_LEN)
    integer, intent(in) :: rows, cols
    double precision, allocatable, intent(out) :: x(:)
    integer :: info
    call hetscal_descinit(desc, rows, cols, ctx, 1, info)  ! a pattern: LLD unused
    allocate (x(max(1_c_long_long, hetscal_local_elements(desc))))
  end subroutine

  ! Global row and column (1-based) of each element of the local array of `desc`, 0 for
  ! padding: the tile queries read once, so that filling and checking are plain loops.
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

  ! A = N*I + ones (a diagonal of -N at order not_pd, when > 0); with which = 1, B = A*X for
  ! X(i,j) = i + j, which is N(N+1)/2 + N*j + N*(i+j).
  subroutine fill(x, desc, which, not_pd)
    double precision, intent(inout) :: x(:)
    integer, intent(in) :: desc(HETSCAL_DESC_LEN), which, not_pd
    integer, allocatable :: rows(:), cols(:)
    integer :: k, i, j
    call element_map(desc, rows, cols)
    do k = 1, size(rows)
      i = rows(k); j = cols(k)
      if (i == 0) cycle
      if (which == 1) then
        x(k) = dble(n) * (n + 1) / 2 + dble(n) * j + dble(n) * (i + j)
      else if (i == j .and. i == not_pd) then
        x(k) = -dble(n)
      else if (i == j) then
        x(k) = dble(n) + 1
      else
        x(k) = 1
      end if
    end do
  end subroutine

  subroutine max_error(x, desc, error)
    double precision, intent(in) :: x(:)
    integer, intent(in) :: desc(HETSCAL_DESC_LEN)
    double precision, intent(inout) :: error
    integer, allocatable :: rows(:), cols(:)
    integer :: k
    call element_map(desc, rows, cols)
    do k = 1, size(rows)
      if (rows(k) > 0) error = max(error, abs(x(k) - dble(rows(k) + cols(k))))
    end do
  end subroutine
end program hetero_cholesky
