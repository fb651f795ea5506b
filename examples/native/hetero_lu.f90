! New Fortran code on hetscal's native API (module hetscal): a context planned for an LU
! factorisation on a heterogeneous Cartesian grid, A and B filled through the tile queries,
! hetero_pdgetrf (pivots in hetscal's format: N global rows on every process) then
! hetero_pdgetrs with TRANS = 'T' (A**T * X = B), the solution checked against its closed
! form; then a matrix whose column 5 is zero must give INFO = 5.
!
!   mpirun -np 4 hetero_lu_f90 [N]      (speeds 1, 2, ..., P)
program hetero_lu
  use hetscal
  use mpi
  use native_example, only: example_grid, order_argument, element_map, example_context, &
       descinit_local, solution_error, example_finish
  implicit none
  integer, parameter :: nrhs = 2
  integer :: me, procs, ictxt, n, ctx, status, info, ierr, singular_info
  integer :: desca(HETSCAL_DESC_LEN), descb(HETSCAL_DESC_LEN)
  integer, allocatable :: ipiv(:)
  double precision, allocatable :: a(:), b(:)
  double precision :: residual

  call MPI_Init(ierr)
  call example_grid(me, procs, ictxt)
  n = order_argument(200)
  ctx = example_context(ictxt, procs, HETSCAL_ROUTINE_GETRF, HETSCAL_LAYOUT_CARTESIAN, n)
  call descinit_local(ctx, desca, n, n, a)
  call descinit_local(ctx, descb, n, nrhs, b)
  allocate (ipiv(n))
  call fill(a, desca, 0, 0)
  call fill(b, descb, 1, 0)
  status = hetero_pdgetrf(n, n, a, 1, 1, desca, ipiv, info)
  if (status == HETSCAL_SUCCESS .and. info == 0) &
       status = hetero_pdgetrs('T', n, nrhs, a, 1, 1, desca, ipiv, b, 1, 1, descb, info)
  residual = solution_error(b, descb, status == HETSCAL_SUCCESS .and. info == 0)

  call fill(a, desca, 0, 5)  ! column 5 zero: U(5,5) is exactly zero
  status = hetero_pdgetrf(n, n, a, 1, 1, desca, ipiv, singular_info)
  if (me == 0) then
    print '("grid ",i0," processes, N=",i0,": status ",i0,", INFO ",i0,", error ",es10.3, &
         &", INFO for a matrix with column 5 zero: ",i0)', procs, n, status, info, residual, &
         singular_info
  end if
  call example_finish(me, residual < 10d0 .and. singular_info == 5, ctx, ictxt)

contains

  ! A = N*P + ones with P the cyclic shift (P(i,i-1) = 1, P(1,N) = 1): cond(A) = 2, but every
  ! step of partial pivoting interchanges rows (column zero_column zero, when > 0). With
  ! which = 1, B = A**T * X for X(i,j) = i + j: N(N+1)/2 + N*j + N*(t(i) + j), t(i) = i + 1
  ! (1 for i = N).
  subroutine fill(x, desc, which, zero_column)
    double precision, intent(inout) :: x(:)
    integer, intent(in) :: desc(HETSCAL_DESC_LEN), which, zero_column
    integer, allocatable :: rows(:), cols(:)
    integer :: k, i, j
    call element_map(desc, rows, cols)
    do k = 1, size(rows)
      i = rows(k); j = cols(k)
      if (i == 0) cycle
      if (which == 1) then
        x(k) = dble(n) * (n + 1) / 2 + dble(n) * j + dble(n) * (modulo(i, n) + 1 + j)
      else if (j == zero_column) then
        x(k) = 0
      else if (j == modulo(i - 2, n) + 1) then
        x(k) = dble(n) + 1
      else
        x(k) = 1
      end if
    end do
  end subroutine

end program hetero_lu
