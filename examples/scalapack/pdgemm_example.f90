! An ordinary ScaLAPACK program (it knows nothing of hetscal): C = A*B with PDGEMM on a
! BLACS grid, matrices from a formula whose exact product is known, so the result is checked.
!
! Usage: pdgemm_example [N [NB [NPROW NPCOL]]]   (defaults: 1000, 64, the squarest grid)
! Prints time, GFLOP/s and the residual ||C - C_exact||_max / (||A||_F ||B||_F N eps);
! exits with status 1 when the residual exceeds 16 (ScaLAPACK testers' threshold).
!
! A(i,j) = sin(i) cos(j) + 1/(i (j+1)),  B(i,j) = cos(i/2) sin(3j/10) + 1/j  (rank 2 each), so
! C(i,j) = sum_{p,q} a_p(i) S_pq d_q(j) with S_pq = sum_k b_p(k) c_q(k): O(N) to get exactly.
program pdgemm_example
  use mpi
  use example_arguments, only: join_grid
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  real(dp), parameter :: threshold = 16.0_dp
  integer :: n, nb, nprow, npcol, iam, ictxt, myrow, mycol, info
  integer :: mloc, nloc, lld, il, jl, i, j, k
  integer :: desca(9), descb(9), descc(9)
  real(dp), allocatable :: a(:,:), b(:,:), c(:,:)
  real(dp) :: s(2,2), err, anorm, bnorm, residual, t0, seconds, gflops, work(1)
  integer, external :: numroc, indxl2g
  real(dp), external :: pdlange

  call join_grid('pdgemm_example', iam, n, nb, nprow, npcol, ictxt, myrow, mycol)

  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desca, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descb, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descc, n, n, nb, nb, 0, 0, ictxt, lld, info)
  allocate(a(lld, max(1, nloc)), b(lld, max(1, nloc)), c(lld, max(1, nloc)))
  do jl = 1, nloc
    j = indxl2g(jl, nb, mycol, 0, npcol)
    do il = 1, mloc
      i = indxl2g(il, nb, myrow, 0, nprow)
      a(il, jl) = a_value(i, j)
      b(il, jl) = b_value(i, j)
    end do
  end do
  c = 0.0_dp

  call blacs_barrier(ictxt, 'All')
  t0 = mpi_wtime()
  call pdgemm('N', 'N', n, n, n, 1.0_dp, a, 1, 1, desca, b, 1, 1, descb, 0.0_dp, c, 1, 1, descc)
  call blacs_barrier(ictxt, 'All')
  seconds = mpi_wtime() - t0
  call dgamx2d(ictxt, 'All', ' ', 1, 1, seconds, 1, i, j, -1, -1, -1)

  s = 0.0_dp  ! inner products of A's column factors with B's row factors
  do k = 1, n
    s(1,1) = s(1,1) + cos(real(k, dp)) * cos(0.5_dp * k)
    s(1,2) = s(1,2) + cos(real(k, dp))
    s(2,1) = s(2,1) + cos(0.5_dp * k) / (k + 1)
    s(2,2) = s(2,2) + 1.0_dp / (k + 1)
  end do
  err = 0.0_dp
  do jl = 1, nloc
    j = indxl2g(jl, nb, mycol, 0, npcol)
    do il = 1, mloc
      i = indxl2g(il, nb, myrow, 0, nprow)
      err = max(err, abs(c(il, jl) - exact_value(i, j)))
    end do
  end do
  call dgamx2d(ictxt, 'All', ' ', 1, 1, err, 1, i, j, -1, -1, -1)
  anorm = pdlange('F', n, n, a, 1, 1, desca, work)
  bnorm = pdlange('F', n, n, b, 1, 1, descb, work)
  residual = err / (anorm * bnorm * n * epsilon(1.0_dp))
  gflops = 2.0_dp * real(n, dp)**3 / seconds / 1.0e9_dp

  if (iam == 0) then
    write(*, '(a,i0,a,i0,a,i0,a,i0)') 'pdgemm_example (Fortran): N=', n, ' NB=', nb, &
        ' grid ', nprow, 'x', npcol
    write(*, '(a,f12.4)') 'time_s    ', seconds
    write(*, '(a,f12.3)') 'gflops    ', gflops
    if (residual <= threshold) then
      write(*, '(a,es12.3,a)') 'residual  ', residual, ' PASSED'
    else
      write(*, '(a,es12.3,a)') 'residual  ', residual, ' FAILED'
    end if
  end if
  deallocate(a, b, c)
  call blacs_gridexit(ictxt)
  call blacs_exit(0)
  if (.not. (residual <= threshold)) error stop 1

contains

  real(dp) function a_value(i, j)
    integer, intent(in) :: i, j
    a_value = sin(real(i, dp)) * cos(real(j, dp)) + 1.0_dp / (real(i, dp) * (j + 1))
  end function

  real(dp) function b_value(i, j)
    integer, intent(in) :: i, j
    b_value = cos(0.5_dp * i) * sin(0.3_dp * j) + 1.0_dp / j
  end function

  real(dp) function exact_value(i, j)
    integer, intent(in) :: i, j
    real(dp) :: row(2), col(2)
    row = [sin(real(i, dp)), 1.0_dp / i]
    col = [sin(0.3_dp * j), 1.0_dp / j]
    exact_value = dot_product(row, matmul(s, col))
  end function

end program pdgemm_example
