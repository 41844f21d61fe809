! heat.f90: explicit 1-D heat diffusion, the Fortran OpenMP program of the end-to-end tests
! (tests/tests/fortran_e2e.rs).
!
! What it exercises: a module (heat_mod) with OpenMP worksharing loops over assumed-shape
! arrays, allocatable arrays in the main program, a `!$omp parallel do` with a static schedule
! (init, step), one with a dynamic schedule and two reductions (summary), and the whole-array
! assignment `b = a` between allocatables, which flang-19 lowers to a call of the runtime's
! `_FortranAAssign` (the pass records it as ranged reads of `a` and writes of `b`).
!
! Expected behaviour: it prints exactly
!
!   heat n 4096 steps 10
!   checksum 128937.596924
!   hot 1917
!
! whatever the number of threads: every value is an integer divided by a power of two no
! larger than 4**10, and every partial sum stays below 2**18, so each sum is exact in double
! precision and the reduction's order cannot change it.
module heat_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  ! u(i) = (7 i) mod 64, integers 0..63.
  subroutine init(u)
    real(dp), intent(out) :: u(:)
    integer :: i
    !$omp parallel do schedule(static)
    do i = 1, size(u)
      u(i) = real(mod(7 * i, 64), dp)
    end do
    !$omp end parallel do
  end subroutine init

  ! One explicit step: v = the three-point average of u, ends held fixed.
  subroutine step(u, v)
    real(dp), intent(in) :: u(:)
    real(dp), intent(inout) :: v(:)
    integer :: i, n
    n = size(u)
    !$omp parallel do schedule(static)
    do i = 2, n - 1
      v(i) = 0.25_dp * u(i - 1) + 0.5_dp * u(i) + 0.25_dp * u(i + 1)
    end do
    !$omp end parallel do
    v(1) = u(1)
    v(n) = u(n)
  end subroutine step

  ! The sum of u and the number of cells hotter than 32.
  subroutine summary(u, total, hot)
    real(dp), intent(in) :: u(:)
    real(dp), intent(out) :: total
    integer, intent(out) :: hot
    integer :: i
    total = 0
    hot = 0
    !$omp parallel do schedule(dynamic, 64) reduction(+:total, hot)
    do i = 1, size(u)
      total = total + u(i)
      if (u(i) > 32.0_dp) hot = hot + 1
    end do
    !$omp end parallel do
  end subroutine summary
end module heat_mod

program heat
  use heat_mod
  implicit none
  integer, parameter :: n = 4096, steps = 10
  real(dp), allocatable :: a(:), b(:)
  real(dp) :: total
  integer :: t, hot
  allocate(a(n), b(n))
  call init(b)
  do t = 1, steps
    call step(b, a)
    b = a
  end do
  call summary(b, total, hot)
  print '(a, i0, a, i0)', 'heat n ', n, ' steps ', steps
  print '(a, f0.6)', 'checksum ', total
  print '(a, i0)', 'hot ', hot
  deallocate(a, b)
end program heat
