! heat2d.f90: a 2-D explicit heat solver on allocatable arrays with OpenMP worksharing loops,
! the Fortran program of the tracing benchmark (tests/benches/trace_overhead.rs).
!
! Size: built with -cpp -DN=... -DSTEPS=... (defaults 1000 and 10). Each step averages the four
! neighbours of every inner cell of u into v (column-major: the inner loop walks a column),
! then copies v back into u. It prints the sum of u, the same whatever the number of threads
! (each cell is computed by one thread from the same values; the sum is sequential).
!
! What flang-19 -O2 makes of it: worksharing loops whose index is `lb + iv` in i32 without
! nsw (loop runs with wrap checks), a vectorised stencil body, and a copy loop unrolled into
! two blocks with the exit test between them (recorded every iteration: runs take one block).
#ifndef N
#define N 1000
#endif
#ifndef STEPS
#define STEPS 10
#endif
program heat2d
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: n = N, steps = STEPS
  real(dp), allocatable :: u(:, :), v(:, :)
  integer :: i, j, t
  allocate(u(n, n), v(n, n))
  !$omp parallel do schedule(static)
  do j = 1, n
    do i = 1, n
      u(i, j) = real(mod(7 * i + 3 * j, 64), dp)
    end do
  end do
  !$omp end parallel do
  v = u
  do t = 1, steps
    !$omp parallel do schedule(static)
    do j = 2, n - 1
      do i = 2, n - 1
        v(i, j) = 0.25_dp * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
    !$omp end parallel do
    !$omp parallel do schedule(static)
    do j = 2, n - 1
      do i = 2, n - 1
        u(i, j) = v(i, j)
      end do
    end do
    !$omp end parallel do
  end do
  print '(f0.3)', sum(u)
end program heat2d
