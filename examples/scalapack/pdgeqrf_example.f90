! An ordinary ScaLAPACK program (it knows nothing of hetscal): the Householder QR
! factorisation A = Q*R with PDGEQRF on a BLACS grid, then the solve A*x = b with ScaLAPACK's
! PDORMQR (c = Q**T b, from PDGEQRF's reflectors and TAU) and PDTRSM (R x = c), checked by the
! residual of the solve against the original A.
!
! Usage: pdgeqrf_example [N [NB [NPROW NPCOL]]]   (defaults: 1000, 64, the squarest grid)
! Prints the factorisation's time, GFLOP/s (4 N**3/3 flops) and the scaled residual
! ||A x - b||_inf / (||A||_1 ||x||_inf N eps); exits with status 1 when an INFO /= 0 or the
! residual exceeds 16 (ScaLAPACK testers' threshold).
!
! A(i,j) = sin(i + N (j-1)): values spread over [-1, 1] with no structure, so every reflector
! is a dense one; b = A * (1, ..., 1)**T by PDGEMV.
program pdgeqrf_example
  use mpi
  use example_arguments, only: join_grid
  use example_report, only: report, solve_residual
  use example_system, only: sine_system
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer :: n, nb, nprow, npcol, iam, ictxt, myrow, mycol, info
  integer :: mloc, nloc, lld, ignored_row, ignored_col
  integer :: desca(9), descb(9)
  real(dp), allocatable :: a(:,:), a_copy(:,:), tau(:), work(:), b(:), x(:)
  real(dp) :: residual, t0, seconds
  integer, external :: numroc

  call join_grid('pdgeqrf_example', iam, n, nb, nprow, npcol, ictxt, myrow, mycol)

  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desca, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descb, n, 1, nb, nb, 0, 0, ictxt, lld, info)
  allocate(a(lld, max(1, nloc)), a_copy(lld, max(1, nloc)), tau(max(1, nloc)))
  allocate(b(lld), x(lld))
  call sine_system(n, a, desca, b, descb)
  a_copy = a
  x = b

  ! WORK sized as ScaLAPACK's callers size it: by the LWORK = -1 query (untimed).
  call allocate_work(query_pdgeqrf())
  call blacs_barrier(ictxt, 'All')
  t0 = mpi_wtime()
  call pdgeqrf(n, n, a, 1, 1, desca, tau, work, size(work), info)
  call blacs_barrier(ictxt, 'All')
  seconds = mpi_wtime() - t0
  call dgamx2d(ictxt, 'All', ' ', 1, 1, seconds, 1, ignored_row, ignored_col, -1, -1, -1)
  if (info == 0) call solve_with_factors()

  residual = huge(1.0_dp)
  if (info == 0) residual = solve_residual(n, a_copy, desca, x, b, descb)
  call report('pdgeqrf_example', iam, n, nb, nprow, npcol, info, seconds, &
              4.0_dp * real(n, dp)**3 / 3.0_dp, residual)
  deallocate(a, a_copy, tau, work, b, x)
  call blacs_gridexit(ictxt)
  call blacs_exit(0)
  if (info /= 0 .or. .not. (residual <= 16.0_dp)) error stop 1

contains

  ! PDGEQRF's answer to LWORK = -1: the WORK length it needs for this A.
  integer function query_pdgeqrf()
    real(dp) :: answer(1)
    call pdgeqrf(n, n, a, 1, 1, desca, tau, answer, -1, info)
    query_pdgeqrf = int(answer(1))
  end function

  ! PDORMQR's answer to LWORK = -1 for c = Q**T c with c the right-hand side x.
  integer function query_pdormqr()
    real(dp) :: answer(1)
    call pdormqr('L', 'T', n, 1, n, a, 1, 1, desca, tau, x, 1, 1, descb, answer, -1, info)
    query_pdormqr = int(answer(1))
  end function

  subroutine allocate_work(length)
    integer, intent(in) :: length
    if (allocated(work)) deallocate(work)
    allocate(work(max(1, length)))
  end subroutine

  ! x = R**-1 Q**T x with ScaLAPACK's own PDORMQR and PDTRSM on PDGEQRF's factors.
  subroutine solve_with_factors()
    call allocate_work(query_pdormqr())
    if (info /= 0) return
    call pdormqr('L', 'T', n, 1, n, a, 1, 1, desca, tau, x, 1, 1, descb, work, size(work), info)
    if (info /= 0) return
    call pdtrsm('L', 'U', 'N', 'N', n, 1, 1.0_dp, a, 1, 1, desca, x, 1, 1, descb)
  end subroutine

end program pdgeqrf_example
