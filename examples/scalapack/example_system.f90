! The test system the LU and QR examples solve (what they share before their call).
module example_system
  implicit none
  private
  public :: sine_system
  integer, parameter :: dp = kind(1.0d0)

contains

  ! A(i,j) = sin(i + N (j-1)) for the N x N A of `desca`: values spread over [-1, 1] with no
  ! structure, so pivoting really interchanges rows and every reflector is a dense one; and
  ! b = A * (1, ..., 1)**T by PDGEMV for the N-vector b of `descb` (in grid column 0), so the
  ! exact solution is all ones.
  subroutine sine_system(n, a, desca, b, descb)
    integer, intent(in) :: n, desca(9), descb(9)
    real(dp), intent(out) :: a(desca(9), *), b(*)
    real(dp), allocatable :: ones(:)
    integer :: nprow, npcol, myrow, mycol, il, jl, i, j
    integer, external :: numroc, indxl2g
    call blacs_gridinfo(desca(2), nprow, npcol, myrow, mycol)
    do jl = 1, numroc(n, desca(6), mycol, desca(8), npcol)
      j = indxl2g(jl, desca(6), mycol, desca(8), npcol)
      do il = 1, numroc(n, desca(5), myrow, desca(7), nprow)
        i = indxl2g(il, desca(5), myrow, desca(7), nprow)
        a(il, jl) = sin(real(i, dp) + real(n, dp) * real(j - 1, dp))
      end do
    end do
    allocate(ones(descb(9)))
    ones = 1.0_dp
    call pdgemv('N', n, n, 1.0_dp, a, 1, 1, desca, ones, 1, 1, descb, 1, 0.0_dp, b, 1, 1, descb, 1)
  end subroutine

end module example_system
