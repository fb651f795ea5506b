! New Fortran code on hetscal's native API (module hetscal) with ScaLAPACK's own matrices:
! the least-squares problem min |A*X - B| of a 2N x N block-cyclic A, solved by
! hetero_pdgeqrf (A moved into the QR layout planned for the speeds of the grid's hetscal
! context and back; TAU in PDGEQRF's format), hetero_pdormqr (Q**T * B, the factors and B
! moved again) and ScaLAPACK's PDTRSM on R in place, R*X = (Q**T * B)(1:N). The solution
! and the residual's norm are checked against their closed forms.
!
!   mpirun -np 4 hetero_qr_f90 [N]      (speeds 1, 2, ..., P)
program hetero_qr
  use hetscal
  use mpi
  use native_example, only: example_grid, order_argument, example_context, example_finish
  implicit none
  integer, parameter :: nrhs = 2, nb = 16
  integer :: me, procs, ictxt, n, m, ctx, status, info, ierr
  integer :: nprow, npcol, myrow, mycol, mloc, nloc, rhsloc
  integer :: desca(9), descb(9)
  double precision, allocatable :: a(:, :), b(:, :), tau(:)
  double precision :: error, residual(2), expected
  integer, external :: numroc

  call MPI_Init(ierr)
  call example_grid(me, procs, ictxt)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  n = order_argument(120)
  m = 2 * n
  ctx = example_context(ictxt, procs, HETSCAL_ROUTINE_GEQRF, HETSCAL_LAYOUT_ANY, n)  ! speeds
  mloc = numroc(m, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  rhsloc = numroc(nrhs, nb, mycol, 0, npcol)
  call descinit(desca, m, n, nb, nb, 0, 0, ictxt, max(1, mloc), info)
  call descinit(descb, m, nrhs, nb, nb, 0, 0, ictxt, max(1, mloc), info)
  allocate (a(max(1, mloc), max(1, nloc)), b(max(1, mloc), max(1, rhsloc)), tau(max(1, nloc)))
  call fill(a, .true.)
  call fill(b, .false.)

  status = hetero_pdgeqrf(m, n, a, 1, 1, desca, tau, info)
  if (status == HETSCAL_SUCCESS .and. info == 0) &
       status = hetero_pdormqr('L', 'T', m, nrhs, n, a, 1, 1, desca, tau, b, 1, 1, descb, info)
  if (status == HETSCAL_SUCCESS .and. info == 0) &
       call pdtrsm('L', 'U', 'N', 'N', n, nrhs, 1d0, a, 1, 1, desca, b, 1, 1, descb)
  call check(b, error, residual)
  if (status /= HETSCAL_SUCCESS .or. info /= 0) error = huge(1d0)
  expected = nrhs * residual_norm_squared()
  if (me == 0) then
    print '("grid ",i0," processes, ",i0,"x",i0,": status ",i0,", INFO ",i0,", error ",es10.3, &
         &", residual ",es12.5," (expected ",es12.5,")")', procs, m, n, status, info, error, &
         sqrt(residual(2)), sqrt(expected)
  end if
  call example_finish(me, error < 10d0 .and. abs(residual(2) - expected) <= 1d-10 * expected, &
       ctx, ictxt)

contains

  ! Global index (1-based) of local index l of a block-cyclic dimension on process p of np.
  integer function global_index(l, p, np)
    integer, intent(in) :: l, p, np
    global_index = ((l - 1) / nb * np + p) * nb + mod(l - 1, nb) + 1
  end function

  ! u(i) = (-1)**i; s = sum of u(1:N).
  double precision function u(i)
    integer, intent(in) :: i
    u = merge(1d0, -1d0, mod(i, 2) == 0)
  end function
  double precision function s()
    s = merge(0d0, -1d0, mod(n, 2) == 0)
  end function

  ! A = [N*I + ones; N*I]; B = A*X + Z, X(i,j) = i + j, Z = [N*u; -(N*I + ones)*u] orthogonal
  ! to A's columns, so X solves the least-squares problem and |B - A*X| = |Z|.
  subroutine fill(x, is_a)
    double precision, intent(out) :: x(:, :)
    logical, intent(in) :: is_a
    integer :: il, jl, i, j, k
    do jl = 1, merge(nloc, rhsloc, is_a)
      j = global_index(jl, mycol, npcol)
      do il = 1, mloc
        i = global_index(il, myrow, nprow)
        k = i - n
        if (is_a .and. i <= n) then
          x(il, jl) = merge(dble(n), 0d0, i == j) + 1
        else if (is_a) then
          x(il, jl) = merge(dble(n), 0d0, k == j)
        else if (i <= n) then
          x(il, jl) = dble(n) * (i + j) + dble(n) * (n + 1) / 2 + dble(n) * j + n * u(i)
        else
          x(il, jl) = dble(n) * (k + j) - n * u(k) - s()
        end if
      end do
    end do
  end subroutine

  ! |Z|**2 of one column.
  double precision function residual_norm_squared()
    integer :: i
    residual_norm_squared = 0
    do i = 1, n
      residual_norm_squared = residual_norm_squared + dble(n)**2 + (n * u(i) + s())**2
    end do
  end function

  ! error: max |X - X_true| / (N (N + NRHS) eps) over B's first N rows; residual(2): the sum
  ! of squares of its last N rows (the least-squares residual), over every process.
  subroutine check(x, error, residual)
    double precision, intent(in) :: x(:, :)
    double precision, intent(out) :: error, residual(2)
    double precision :: worst
    integer :: il, jl, i, j
    worst = 0
    residual = 0
    do jl = 1, rhsloc
      j = global_index(jl, mycol, npcol)
      do il = 1, mloc
        i = global_index(il, myrow, nprow)
        if (i <= n) worst = max(worst, abs(x(il, jl) - (i + j)))
        if (i > n) residual(1) = residual(1) + x(il, jl)**2
      end do
    end do
    call MPI_Allreduce(worst, error, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(residual(1), residual(2), 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
         MPI_COMM_WORLD, ierr)
    error = error / (dble(n) * dble(n + nrhs) * epsilon(1d0))
  end subroutine

end program hetero_qr
