! Fortran code keeping a matrix in hetscal's layout while the speeds change: a GEMM context
! planned for speeds 1, 2, ..., P; A(i,j) = i + j kept in its Cartesian layout; the speeds
! turn to P, ..., 2, 1 and hetscal_context_rebalance moves A with the context (the caller
! allocates: hetscal_rebalanced_elements gives the new local size). Every element is then
! checked against its closed form, and the report's volumes printed.
!
!   mpirun -np 4 hetero_rebalance_f90 [N]
program hetero_rebalance
  use, intrinsic :: iso_c_binding, only: c_loc, c_long_long, c_ptr
  use hetscal
  use mpi
  use native_example, only: example_grid, order_argument, element_map, descinit_local, &
       example_finish
  implicit none
  integer :: me, procs, ictxt, ctx, n, r, k, status, ierr
  integer, target :: desc(HETSCAL_DESC_LEN)
  integer, allocatable :: rows(:), cols(:)
  double precision, allocatable, target :: a(:)
  double precision, allocatable :: kept(:), new_speeds(:)
  integer(c_long_long) :: needed, capacity(1)
  type(c_ptr) :: arrays(1), descs(1)
  type(hetscal_rebalance_report) :: report
  double precision :: error, worst

  call MPI_Init(ierr)
  call example_grid(me, procs, ictxt)
  n = order_argument(240)
  status = hetscal_gemm_context_create(ictxt, [(dble(r), r = 1, procs)], n, n, n, ctx)
  if (status /= HETSCAL_SUCCESS) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  call descinit_local(ctx, desc, n, n, a)
  call element_map(desc, rows, cols)
  do k = 1, size(rows)
    if (rows(k) > 0) a(k) = dble(rows(k) + cols(k))
  end do

  new_speeds = [(dble(procs + 1 - r), r = 1, procs)]
  needed = hetscal_rebalanced_elements(ctx, new_speeds, n, n)
  if (needed > size(a)) then  ! grow the array, keeping its contents
    kept = a
    deallocate (a)
    allocate (a(needed))
    a(1:size(kept)) = kept
  end if
  capacity(1) = size(a)
  arrays(1) = c_loc(a(1))
  descs(1) = c_loc(desc(1))
  status = hetscal_context_rebalance(ctx, new_speeds, 1, arrays, capacity, descs, report)

  call element_map(desc, rows, cols)  ! the new layout
  error = 0d0
  if (status /= HETSCAL_SUCCESS) error = huge(1d0)
  do k = 1, size(rows)
    if (rows(k) > 0) error = max(error, abs(a(k) - dble(rows(k) + cols(k))))
  end do
  call MPI_Allreduce(error, worst, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (me == 0) print '("status ",i0,": moved ",i0," of ",i0," elements (",i0," column and ",i0, &
       &" row migrations); a fresh plan would move ",i0)', status, report%moved_elements, &
       report%total_elements, report%column_migrations, report%row_migrations, &
       report%fresh_elements
  call example_finish(me, worst == 0d0, ctx, ictxt)
end program
