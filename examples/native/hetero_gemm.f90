! New Fortran code on hetscal's native API (module hetscal): plan a context for given speeds,
! keep A, B and C in hetscal's heterogeneous layout, call hetero_pdgemm several times, check
! the residual against the closed form of A*B.
!
!   mpirun -np 4 hetero_gemm_f90 [M N K]      (speeds 1, 2, ..., P)
program hetero_gemm
  use hetscal
  use mpi
  use native_example, only: example_grid
  implicit none
  integer :: me, procs, ictxt, r, m, n, k, ctx, status, info, ierr, call_number
  integer :: grid_rows, grid_cols, myrow, mycol
  integer :: desca(HETSCAL_DESC_LEN), descb(HETSCAL_DESC_LEN), descc(HETSCAL_DESC_LEN)
  double precision, allocatable :: speeds(:), a(:, :), b(:, :), c(:, :)
  double precision :: seconds, balance, speedup, error, worst, residual
  double precision, parameter :: alphas(3) = [1d0, 2d0, -1d0], betas(3) = [0d0, -1d0, 3d0]
  character(len=16) :: arg

  call MPI_Init(ierr)
  call example_grid(me, procs, ictxt)
  m = 300; n = 200; k = 150
  if (command_argument_count() >= 3) then
    call get_command_argument(1, arg); read (arg, *) m
    call get_command_argument(2, arg); read (arg, *) n
    call get_command_argument(3, arg); read (arg, *) k
  end if
  speeds = [(dble(r), r = 1, procs)]

  status = hetscal_gemm_context_create(ictxt, speeds, m, n, k, ctx)
  if (status /= HETSCAL_SUCCESS) then
    print *, 'hetscal_gemm_context_create failed:', status
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  status = hetscal_context_grid(ctx, grid_rows, grid_cols, myrow, mycol)
  status = hetscal_context_prediction(ctx, seconds, balance, speedup)
  if (me == 0) print '(i0,"x",i0,"x",i0," on ",i0," processes: grid ",i0,"x",i0,", tile ",i0, &
       &", predicted balance ",f6.3,", speed-up ",f5.2," over an even split")', m, n, k, procs, &
       grid_rows, grid_cols, hetscal_context_tile(ctx), balance, speedup

  call fill(a, desca, m, k, 1)
  call fill(b, descb, k, n, 2)
  call fill(c, descc, m, n, 3)
  ! C = A*B; C = 2*A*B - C (= A*B); C = 3*C - A*B (= 2*A*B)
  info = 0
  do call_number = 1, 3
    if (info /= 0) exit
    call hetero_pdgemm('N', 'N', m, n, k, alphas(call_number), a, 1, 1, desca, b, 1, 1, descb, &
         betas(call_number), c, 1, 1, descc, info)
  end do

  error = 0d0
  if (info /= 0) error = huge(1d0)
  call max_error(c, m, n, error)
  call MPI_Allreduce(error, worst, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  residual = worst / (dble(k) * dble(m + k) * dble(max(k, n)) * epsilon(1d0))
  if (me == 0) then
    if (residual < 10d0) then
      print '("INFO ",i0,", residual ",es10.3,": PASSED")', info, residual
    else
      print '("INFO ",i0,", residual ",es10.3,": FAILED")', info, residual
    end if
  end if
  status = hetscal_context_free(ctx)
  call blacs_gridexit(ictxt)
  call MPI_Finalize(ierr)
  if (residual >= 10d0) error stop 1

contains

  ! A(i,l) = i + l, B(l,j) = l - j; C starts as NaN (beta = 0 never reads it).
  double precision function element(which, i, j)
    integer, intent(in) :: which, i, j
    select case (which)
    case (1)
      element = dble(i + j)
    case (2)
      element = dble(i - j)
    case default
      element = transfer(-1_8, 1d0)  ! a NaN
    end select
  end function

  subroutine fill(x, desc, rows, cols, which)
    double precision, allocatable, intent(out) :: x(:, :)
    integer, intent(out) :: desc(HETSCAL_DESC_LEN)
    integer, intent(in) :: rows, cols, which
    integer :: lr, lc, il, jl, descinfo
    lr = hetscal_local_rows(ctx, rows)
    lc = hetscal_local_cols(ctx, cols)
    call hetscal_descinit(desc, rows, cols, ctx, max(1, lr), descinfo)
    allocate (x(max(1, lr), max(1, lc)))
    do jl = 1, lc
      do il = 1, lr
        x(il, jl) = element(which, hetscal_global_row(ctx, rows, il), hetscal_global_col(ctx, cols, jl))
      end do
    end do
  end subroutine

  subroutine max_error(x, rows, cols, error)
    double precision, intent(in) :: x(:, :)
    integer, intent(in) :: rows, cols
    double precision, intent(inout) :: error
    integer :: il, jl, i, j
    double precision :: s1, s2, exact
    s1 = dble(k) * (k + 1) / 2
    s2 = dble(k) * (k + 1) * (2 * k + 1) / 6
    do jl = 1, hetscal_local_cols(ctx, cols)
      do il = 1, hetscal_local_rows(ctx, rows)
        i = hetscal_global_row(ctx, rows, il)
        j = hetscal_global_col(ctx, cols, jl)
        exact = 2 * (i * s1 - dble(i) * j * k + s2 - j * s1)
        if (x(il, jl) /= x(il, jl)) then  ! NaN: MPI_MAX may drop it
          error = huge(1d0)
        else
          error = max(error, abs(x(il, jl) - exact))
        end if
      end do
    end do
  end subroutine
end program
