! An ordinary ScaLAPACK program (it knows nothing of hetscal): the Cholesky factorisation
! A = L*L**T with PDPOTRF on a BLACS grid, then the solve A*x = b with PDPOTRS, checked by the
! residual of the solve against the original A.
!
! Usage: pdpotrf_example [N [NB [NPROW NPCOL]]]   (defaults: 1000, 64, the squarest grid)
! Prints the factorisation's time, GFLOP/s (N**3/3 flops) and the scaled residual
! ||A x - b||_inf / (||A||_1 ||x||_inf N eps); exits with status 1 when INFO /= 0 or the
! residual exceeds 16 (ScaLAPACK testers' threshold).
!
! A(i,j) = 0.5**|i-j| + sin(i) sin(j): a Kac-Murdock-Szego matrix (positive definite, its
! condition number below 3) plus a rank-one positive semidefinite term, so A is positive
! definite for every N; b(i) = sum_j A(i,j), i.e. the exact solution is x = 1.
program pdpotrf_example
  use mpi
  use example_arguments, only: join_grid
  use example_report, only: report, solve_residual
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: n, nb, nprow, npcol, iam, ictxt, myrow, mycol, info
  integer :: mloc, nloc, lld, il, jl, i, j, ignored_row, ignored_col
  integer :: desca(9), descb(9)
  real(dp), allocatable :: a(:,:), a_copy(:,:), b(:), x(:)
  real(dp) :: residual, t0, seconds, sines
  integer, external :: numroc, indxl2g

  call join_grid('pdpotrf_example', iam, n, nb, nprow, npcol, ictxt, myrow, mycol)

  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desca, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descb, n, 1, nb, nb, 0, 0, ictxt, lld, info)
  allocate(a(lld, max(1, nloc)), a_copy(lld, max(1, nloc)), b(lld), x(lld))
  do jl = 1, nloc
    j = indxl2g(jl, nb, mycol, 0, npcol)
    do il = 1, mloc
      i = indxl2g(il, nb, myrow, 0, nprow)
      a(il, jl) = a_value(i, j)
    end do
  end do
  a_copy = a
  sines = 0.0_dp
  do i = 1, n
    sines = sines + sin(real(i, dp))
  end do
  x = 0.0_dp
  if (mycol == 0) then  ! b lives in grid column 0
    do il = 1, mloc
      i = indxl2g(il, nb, myrow, 0, nprow)
      x(il) = row_sum(i, sines)
    end do
  end if
  b = x

  call blacs_barrier(ictxt, 'All')
  t0 = mpi_wtime()
  call pdpotrf('L', n, a, 1, 1, desca, info)
  call blacs_barrier(ictxt, 'All')
  seconds = mpi_wtime() - t0
  call dgamx2d(ictxt, 'All', ' ', 1, 1, seconds, 1, ignored_row, ignored_col, -1, -1, -1)
  if (info == 0) call pdpotrs('L', n, 1, a, 1, 1, desca, x, 1, 1, descb, info)

  residual = huge(1.0_dp)
  if (info == 0) residual = solve_residual(n, a_copy, desca, x, b, descb)
  call report('pdpotrf_example', iam, n, nb, nprow, npcol, info, seconds, &
              real(n, dp)**3 / 3.0_dp, residual)
  deallocate(a, a_copy, b, x)
  call blacs_gridexit(ictxt)
  call blacs_exit(0)
  if (info /= 0 .or. .not. (residual <= 16.0_dp)) error stop 1

contains

  real(dp) function a_value(i, j)
    integer, intent(in) :: i, j
    a_value = 0.5_dp**abs(i - j) + sin(real(i, dp)) * sin(real(j, dp))
  end function

  ! sum_j A(i,j): the geometric sums of 0.5**|i-j| left of and on the diagonal
  ! (2 - 0.5**(i-1)) and right of it (1 - 0.5**(n-i)), plus sin(i) * sum_j sin(j).
  real(dp) function row_sum(i, sines)
    integer, intent(in) :: i
    real(dp), intent(in) :: sines
    row_sum = (2.0_dp - 0.5_dp**(i - 1)) + (1.0_dp - 0.5_dp**(n - i)) + sin(real(i, dp)) * sines
  end function

end program pdpotrf_example
