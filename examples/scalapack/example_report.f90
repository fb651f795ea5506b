! What the factorisation examples share after their call: the scaled residual of a solve and
! the report they print (the keys demo.sh reads: info, time_s, gflops, residual).
module example_report
  implicit none
  private
  public :: report, solve_residual
  integer, parameter :: dp = kind(1.0d0)

contains

  ! ||A x - b||_inf / (||A||_1 ||x||_inf N eps) for the N x N A and the N-vectors x, b (b is
  ! overwritten by A x - b), as ScaLAPACK's testers scale it.
  real(dp) function solve_residual(n, a, desca, x, b, descb)
    integer, intent(in) :: n, desca(9), descb(9)
    real(dp), intent(in) :: a(*), x(*)
    real(dp), intent(inout) :: b(*)
    real(dp), allocatable :: work(:)
    real(dp) :: anorm, xnorm, rnorm
    real(dp), external :: pdlange
    allocate(work(max(1, desca(9), n)))
    call pdgemv('N', n, n, 1.0_dp, a, 1, 1, desca, x, 1, 1, descb, 1, -1.0_dp, b, 1, 1, descb, 1)
    anorm = pdlange('1', n, n, a, 1, 1, desca, work)
    xnorm = pdlange('I', n, 1, x, 1, 1, descb, work)
    rnorm = pdlange('I', n, 1, b, 1, 1, descb, work)
    solve_residual = rnorm / (anorm * xnorm * n * epsilon(1.0_dp))
  end function

  ! Rank 0 prints the case, INFO, the time, GFLOP/s of `flops` and the residual with its
  ! verdict (PASSED when INFO = 0 and the residual is at most 16).
  subroutine report(program, iam, n, nb, nprow, npcol, info, seconds, flops, residual)
    character(len=*), intent(in) :: program
    integer, intent(in) :: iam, n, nb, nprow, npcol, info
    real(dp), intent(in) :: seconds, flops, residual
    if (iam /= 0) return
    write(*, '(2a,i0,a,i0,a,i0,a,i0)') program, ' (Fortran): N=', n, ' NB=', nb, ' grid ', &
        nprow, 'x', npcol
    write(*, '(a,i12)') 'info      ', info
    write(*, '(a,f12.4)') 'time_s    ', seconds
    write(*, '(a,f12.3)') 'gflops    ', flops / seconds / 1.0e9_dp
    if (info == 0 .and. residual <= 16.0_dp) then
      write(*, '(a,es12.3,a)') 'residual  ', residual, ' PASSED'
    else
      write(*, '(a,es12.3,a)') 'residual  ', residual, ' FAILED'
    end if
  end subroutine

end module example_report
