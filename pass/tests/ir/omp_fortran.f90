! OpenMP shapes of flang-19 the pass must recognise: static and dynamic worksharing loops, a
! reduction, a parallel region with two worksharing loops (guided, then static chunked), a
! private variable, whole-array assignments that flang lowers to `_FortranAAssign`, and a
! MATMUL that stays a runtime call. Regenerate the .ll files (from this directory) with
!   flang-new-19 -fopenmp -O0 -g -S -emit-llvm omp_fortran.f90 -o omp_fortran_O0.ll
!   flang-new-19 -fopenmp -O2 -g -S -emit-llvm omp_fortran.f90 -o omp_fortran_O2.ll
module kernels
  implicit none
contains
  subroutine scale(a, f)
    real(8), intent(inout) :: a(:)
    real(8), intent(in) :: f
    integer :: i
    !$omp parallel do schedule(static)
    do i = 1, size(a)
      a(i) = a(i) * f
    end do
  end subroutine scale

  subroutine dyn(a, b)
    real(8), intent(inout) :: a(:)
    real(8), intent(in) :: b(:)
    integer :: i
    !$omp parallel do schedule(dynamic, 4)
    do i = 1, size(a)
      a(i) = a(i) + b(i)
    end do
  end subroutine dyn

  function total(a) result(s)
    real(8), intent(in) :: a(:)
    real(8) :: s
    integer :: i
    s = 0
    !$omp parallel do reduction(+:s)
    do i = 1, size(a)
      s = s + a(i)
    end do
  end function total

  subroutine phases(a, b)
    real(8), intent(inout) :: a(:), b(:)
    real(8) :: t
    integer :: i
    !$omp parallel private(t)
    !$omp do schedule(guided)
    do i = 1, size(a)
      t = a(i) * 2
      b(i) = t + 1
    end do
    !$omp do schedule(static, 8)
    do i = 1, size(a)
      a(i) = b(i) - a(i)
    end do
    !$omp end parallel
  end subroutine phases
end module kernels

program main
  use kernels
  implicit none
  real(8), allocatable :: x(:), y(:), m(:, :), p(:, :)
  integer :: i
  allocate(x(100), y(100), m(4, 4))
  do i = 1, 100
    y(i) = i
  end do
  x = y
  call scale(x, 2.0d0)
  call dyn(x, y)
  call phases(x, y)
  y = x(100:1:-1)
  m = 1
  p = matmul(m, m)
  print *, total(x), total(y), p(1, 1)
end program main
