! Command-line arguments shared by the Fortran example programs: N, NB, NPROW, NPCOL, and
! the BLACS grid they ask for.
module example_arguments
  implicit none
  private
  public :: read_arguments, join_grid

contains

  ! BLACS_PINFO, the arguments (read_arguments) and a 'Row' grid of NPROW x NPCOL processes;
  ! a process left outside the grid leaves BLACS and stops here.
  subroutine join_grid(program, iam, n, nb, nprow, npcol, ictxt, myrow, mycol)
    character(len=*), intent(in) :: program
    integer, intent(out) :: iam, n, nb, nprow, npcol, ictxt, myrow, mycol
    integer :: nprocs
    call blacs_pinfo(iam, nprocs)
    call read_arguments(program, nprocs, n, nb, nprow, npcol)
    call blacs_get(-1, 0, ictxt)
    call blacs_gridinit(ictxt, 'Row', nprow, npcol)
    call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
    if (myrow < 0) then  ! ranks beyond nprow*npcol take no part
      call blacs_exit(0)
      stop
    end if
  end subroutine

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
