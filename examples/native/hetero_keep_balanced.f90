! Fortran code whose matrices follow the speeds hetscal learns while it runs: a GEMM context
! planned for speeds 1, 2, ..., P (made up: on equal cores hetscal learns they are equal),
! A(i,j) = i and B(i,j) = j kept in its layout and registered with
! hetscal_context_keep_balanced, then C = A*B computed CALLS times with hetero_pdgemm. The
! second call observes the real speeds and, before computing, moves A, B and C to a layout
! for them (HETSCAL_VERBOSE=1 prints what moved against a full redistribution). Every product
! is checked against its closed form C(i,j) = N*i*j, and the layout must have changed.
!
!   mpirun -np 4 hetero_keep_balanced_f90 [N] [CALLS]
program hetero_keep_balanced
  use, intrinsic :: iso_c_binding, only: c_loc, c_long_long, c_ptr
  use hetscal
  use mpi
  use native_example, only: example_grid, order_argument, element_map, example_finish
  implicit none
  integer :: me, procs, ictxt, ctx, n, calls, call_number, r, k, status, info, ierr
  integer, target :: desca(HETSCAL_DESC_LEN), descb(HETSCAL_DESC_LEN), descc(HETSCAL_DESC_LEN)
  integer, allocatable :: rows(:), cols(:)
  ! Room for the largest local part allowed: here the whole matrix (a small example); a
  ! program bounds it by hetscal_rebalanced_elements for the slowest speeds it expects.
  double precision, allocatable, target :: a(:), b(:), c(:)
  integer(c_long_long) :: capacities(3), first_size
  type(c_ptr) :: arrays(3), descs(3)
  double precision :: error, worst
  logical :: moved, anywhere_moved
  character(len=16) :: arg

  call MPI_Init(ierr)
  call example_grid(me, procs, ictxt)
  n = order_argument(200)
  calls = 4
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *) calls
  end if
  status = hetscal_gemm_context_create(ictxt, [(dble(r), r = 1, procs)], n, n, n, ctx)
  if (status /= HETSCAL_SUCCESS) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  call describe(desca, a)
  call describe(descb, b)
  call describe(descc, c)
  call element_map(desca, rows, cols)
  do k = 1, size(rows)
    if (rows(k) > 0) a(k) = dble(rows(k))
    if (rows(k) > 0) b(k) = dble(cols(k))
  end do
  first_size = hetscal_local_elements(descc)

  capacities = [size(a, kind=c_long_long), size(b, kind=c_long_long), size(c, kind=c_long_long)]
  arrays = [c_loc(a(1)), c_loc(b(1)), c_loc(c(1))]
  descs = [c_loc(desca(1)), c_loc(descb(1)), c_loc(descc(1))]
  status = hetscal_context_keep_balanced(ctx, 3, arrays, capacities, descs)
  if (status /= HETSCAL_SUCCESS) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)

  error = 0d0
  do call_number = 1, calls
    ! The arrays and descriptors registered: hetscal may move them before computing.
    call hetero_pdgemm('N', 'N', n, n, n, 1d0, a, 1, 1, desca, b, 1, 1, descb, 0d0, c, 1, 1, &
         descc, info)
    if (info /= 0) error = huge(1d0)
    call element_map(descc, rows, cols)  ! the layout of this call
    do k = 1, size(rows)
      if (rows(k) > 0) error = max(error, abs(c(k) - dble(n) * rows(k) * cols(k)))
    end do
  end do
  moved = hetscal_local_elements(descc) /= first_size
  call MPI_Allreduce(error, worst, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(moved, anywhere_moved, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  if (me == 0) print '("max error ",es9.2,"; layout followed the learnt speeds: ",l1)', worst, &
       anywhere_moved
  call example_finish(me, worst == 0d0 .and. (anywhere_moved .or. procs == 1), ctx, ictxt)

contains

  ! An N x N matrix of the context, its local array with room for the whole matrix.
  subroutine describe(desc, x)
    integer, intent(out) :: desc(HETSCAL_DESC_LEN)
    double precision, allocatable, intent(out) :: x(:)
    call hetscal_descinit(desc, n, n, ctx, max(1, hetscal_local_rows(ctx, n)), info)
    allocate (x(int(n, c_long_long) * n), source=0d0)
  end subroutine
end program
