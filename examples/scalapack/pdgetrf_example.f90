! An ordinary ScaLAPACK program (it knows nothing of hetscal): the LU factorisation with
! partial pivoting P*A = L*U with PDGETRF on a BLACS grid, then the solve A*x = b with
! ScaLAPACK's PDGETRS on those factors and pivots, checked by the residual of the solve
! against the original A.
!
! Usage: pdgetrf_example [N [NB [NPROW NPCOL]]]   (defaults: 1000, 64, the squarest grid)
! Prints the factorisation's time, GFLOP/s (2 N**3/3 flops) and the scaled residual
! ||A x - b||_inf / (||A||_1 ||x||_inf N eps); exits with status 1 when INFO /= 0 or the
! residual exceeds 16 (ScaLAPACK testers' threshold).
!
! A(i,j) = sin(i + N (j-1)): values spread over [-1, 1] with no structure, so partial
! pivoting really interchanges rows; b = A * (1, ..., 1)**T by PDGEMV.
program pdgetrf_example
  use mpi
  use example_arguments, only: join_grid
  use example_report, only: report, solve_residual
  use example_system, only: sine_system
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: n, nb, nprow, npcol, iam, ictxt, myrow, mycol, info
  integer :: mloc, nloc, lld, ignored_row, ignored_col
  integer :: desca(9), descb(9)
  integer, allocatable :: ipiv(:)
  real(dp), allocatable :: a(:,:), a_copy(:,:), b(:), x(:)
  real(dp) :: residual, t0, seconds
  integer, external :: numroc

  call join_grid('pdgetrf_example', iam, n, nb, nprow, npcol, ictxt, myrow, mycol)

  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desca, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descb, n, 1, nb, nb, 0, 0, ictxt, lld, info)
  allocate(a(lld, max(1, nloc)), a_copy(lld, max(1, nloc)), b(lld), x(lld))
  allocate(ipiv(mloc + nb))
  call sine_system(n, a, desca, b, descb)
  a_copy = a
  x = b

  call blacs_barrier(ictxt, 'All')
  t0 = mpi_wtime()
  call pdgetrf(n, n, a, 1, 1, desca, ipiv, info)
  call blacs_barrier(ictxt, 'All')
  seconds = mpi_wtime() - t0
  call dgamx2d(ictxt, 'All', ' ', 1, 1, seconds, 1, ignored_row, ignored_col, -1, -1, -1)
  if (info == 0) call pdgetrs('N', n, 1, a, 1, 1, desca, ipiv, x, 1, 1, descb, info)

  residual = huge(1.0_dp)
  if (info == 0) residual = solve_residual(n, a_copy, desca, x, b, descb)
  call report('pdgetrf_example', iam, n, nb, nprow, npcol, info, seconds, &
              2.0_dp * real(n, dp)**3 / 3.0_dp, residual)
  deallocate(a, a_copy, b, x, ipiv)
  call blacs_gridexit(ictxt)
  call blacs_exit(0)
  if (info /= 0 .or. .not. (residual <= 16.0_dp)) error stop 1

end program pdgetrf_example
