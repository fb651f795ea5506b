! New Fortran code on hetscal's native API (module hetscal): a context planned for a Cholesky
! factorisation on a pattern layout (U factor this time), A and B filled through the tile
! queries, hetero_pdpotrf then hetero_pdpotrs, the solution checked against its closed form;
! then a matrix that is not positive definite at order 5 must give INFO = 5.
!
!   mpirun -np 4 hetero_cholesky_f90 [N]      (speeds 1, 2, ..., P)
program hetero_cholesky
  use hetscal
  use mpi
  use native_example, only: example_grid, order_argument, element_map, example_context, &
       descinit_local, solution_error, example_finish
  implicit none
  integer, parameter :: nrhs = 2
  integer :: me, procs, ictxt, n, ctx, status, info, ierr, not_pd_info
  integer :: desca(HETSCAL_DESC_LEN), descb(HETSCAL_DESC_LEN)
  double precision, allocatable :: a(:), b(:)
  double precision :: residual

  call MPI_Init(ierr)
  call example_grid(me, procs, ictxt)
  n = order_argument(200)
  ctx = example_context(ictxt, procs, HETSCAL_ROUTINE_POTRF, HETSCAL_LAYOUT_PATTERN, n)
  call descinit_local(ctx, desca, n, n, a)
  call descinit_local(ctx, descb, n, nrhs, b)
  call fill(a, desca, 0, 0)
  call fill(b, descb, 1, 0)
  status = hetero_pdpotrf('U', n, a, 1, 1, desca, info)
  if (status == HETSCAL_SUCCESS .and. info == 0) &
       status = hetero_pdpotrs('U', n, nrhs, a, 1, 1, desca, b, 1, 1, descb, info)
  residual = solution_error(b, descb, status == HETSCAL_SUCCESS .and. info == 0)

  call fill(a, desca, 0, 5)  ! the leading minor of order 5 is not positive definite
  status = hetero_pdpotrf('U', n, a, 1, 1, desca, not_pd_info)
  if (me == 0) then
    print '("pattern ",i0," processes, N=",i0,": status ",i0,", INFO ",i0,", error ",es10.3, &
         &", INFO for a matrix not positive definite at order 5: ",i0)', procs, n, status, info, &
         residual, not_pd_info
  end if
  call example_finish(me, residual < 10d0 .and. not_pd_info == 5, ctx, ictxt)

contains

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

end program hetero_cholesky
