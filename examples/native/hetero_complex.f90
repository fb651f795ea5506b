! New Fortran code on hetscal's native API in double complex, through the generic names of
! module hetscal (hetero_gemm, hetero_potrf, hetero_potrs resolve to hetero_pzgemm,
! hetero_pzpotrf, hetero_pzpotrs by the arrays' type): a Cholesky context (the layout the
! planner prefers), a Hermitian positive definite A and a known complex X in that layout,
! B = A*X by hetero_gemm, then A = L*L**H and A*X = B solved; X must come back.
!
!   mpirun -np 4 hetero_complex_f90 [N]      (speeds 1, 2, ..., P)
program hetero_complex
  use, intrinsic :: iso_c_binding, only: c_double_complex, c_long_long
  use hetscal
  use mpi
  use native_example, only: example_grid, order_argument, element_map, example_context, &
       example_finish
  implicit none
  integer, parameter :: nrhs = 3
  complex(c_double_complex), parameter :: one = (1d0, 0d0), zero = (0d0, 0d0)
  integer :: me, procs, ictxt, n, ctx, status, info, ierr
  integer :: desca(HETSCAL_DESC_LEN), descx(HETSCAL_DESC_LEN), descb(HETSCAL_DESC_LEN)
  complex(c_double_complex), allocatable :: a(:), x(:), b(:)
  double precision :: error

  call MPI_Init(ierr)
  call example_grid(me, procs, ictxt)
  n = order_argument(120)
  ctx = example_context(ictxt, procs, HETSCAL_ROUTINE_POTRF, HETSCAL_LAYOUT_ANY, n)
  call complex_local(desca, n, n, a)
  call complex_local(descx, n, nrhs, x)
  call complex_local(descb, n, nrhs, b)
  call fill(a, desca, .true.)
  call fill(x, descx, .false.)
  ! B = A*X; BETA = 0: B is never read
  call hetero_gemm('N', 'N', n, nrhs, n, one, a, 1, 1, desca, x, 1, 1, descx, zero, b, 1, 1, &
       descb, info)
  status = HETSCAL_ERR_ARGUMENT
  if (info == 0) status = hetero_potrf('L', n, a, 1, 1, desca, info)
  if (status == HETSCAL_SUCCESS .and. info == 0) &
       status = hetero_potrs('L', n, nrhs, a, 1, 1, desca, b, 1, 1, descb, info)
  error = huge(1d0)
  if (status == HETSCAL_SUCCESS .and. info == 0) error = max_difference(b, x)
  if (me == 0) print '("double complex, ",i0," processes, N=",i0,": status ",i0,", INFO ",i0, &
       &", max |X - X exact| ",es10.3)', procs, n, status, info, error
  call example_finish(me, error < 1d-10, ctx, ictxt)

contains

  ! A descriptor of a rows x cols complex matrix of the context and its local array.
  subroutine complex_local(desc, rows, cols, z)
    integer, intent(out) :: desc(HETSCAL_DESC_LEN)
    integer, intent(in) :: rows, cols
    complex(c_double_complex), allocatable, intent(out) :: z(:)
    call hetscal_descinit(desc, rows, cols, ctx, max(1, hetscal_local_rows(ctx, rows)), info)
    allocate (z(max(1_c_long_long, hetscal_local_elements(desc))))
    z = zero
  end subroutine

  ! A(i,j) = N+1 on the diagonal, i*sign(j-i) off it: Hermitian, and positive definite since
  ! its off-diagonal part is below N in norm. X(i,j) = (i+j) + i*(i-j).
  subroutine fill(z, desc, is_a)
    complex(c_double_complex), intent(inout) :: z(:)
    integer, intent(in) :: desc(HETSCAL_DESC_LEN)
    logical, intent(in) :: is_a
    integer, allocatable :: rows(:), cols(:)
    integer :: k, i, j
    call element_map(desc, rows, cols)
    do k = 1, size(rows)
      i = rows(k); j = cols(k)
      if (i == 0) cycle
      if (.not. is_a) then
        z(k) = cmplx(i + j, i - j, c_double_complex)
      else if (i == j) then
        z(k) = cmplx(n + 1, 0, c_double_complex)
      else
        z(k) = cmplx(0, sign(1, j - i), c_double_complex)
      end if
    end do
  end subroutine

  ! max |computed - exact| over every process's elements (the two share one layout).
  double precision function max_difference(computed, exact)
    complex(c_double_complex), intent(in) :: computed(:), exact(:)
    integer, allocatable :: rows(:), cols(:)
    double precision :: local
    integer :: k
    call element_map(descb, rows, cols)
    local = 0
    do k = 1, size(rows)
      if (rows(k) /= 0) local = max(local, abs(computed(k) - exact(k)))
    end do
    call MPI_Allreduce(local, max_difference, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  end function

end program hetero_complex
