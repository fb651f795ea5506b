! Command-line arguments shared by the Fortran example programs: N, NB, NPROW, NPCOL.
module example_arguments
  implicit none
  private
  public :: read_arguments

contains

  ! N, NB, NPROW, NPCOL from the command line (defaults 1000, 64 and the squarest
  ! nprow x npcol = nprocs with nprow <= npcol); stops with status 2 and a usage line naming
  ! `program` when a value is missing its mark.
  subroutine read_arguments(program, nprocs, n, nb, nprow, npcol)
    character(len=*), intent(in) :: program
    integer, intent(in) :: nprocs
    integer, intent(out) :: n, nb, nprow, npcol
    n = integer_argument(1, 1000)
    nb = integer_argument(2, 64)
    nprow = int(sqrt(real(nprocs)))
    do while (mod(nprocs, nprow) /= 0)
      nprow = nprow - 1
    end do
    npcol = nprocs / nprow
    nprow = integer_argument(3, nprow)
    npcol = integer_argument(4, npcol)
    if (n < 1 .or. nb < 1 .or. nprow < 1 .or. npcol < 1 .or. nprow * npcol > nprocs) then
      write(*, '(3a)') 'usage: ', program, ' [N [NB [NPROW NPCOL]]], NPROW*NPCOL <= ranks'
      error stop 2
    end if
  end subroutine

  integer function integer_argument(position, default)
    integer, intent(in) :: position, default
    character(len=32) :: text
    integer :: status
    integer_argument = default
    if (command_argument_count() < position) return
    call get_command_argument(position, text)
    read(text, *, iostat=status) integer_argument
    if (status /= 0) integer_argument = -1
  end function

end module example_arguments
