! sections.f90: whole-array assignments from array sections, which flang-19 lowers to
! `_FortranAAssign` with a non-contiguous source descriptor. The Fortran end-to-end test
! (tests/tests/fortran_e2e.rs) checks the ranges the pass records for each: one per contiguous
! run of the source, in element order, and one range for the (contiguous) destination.
!
! Expected behaviour: it prints exactly
!
!   sections 16.0 129.0 8.0
!
! (the sum of a, the sum of c, and e(1)).
program sections
  implicit none
  integer, parameter :: n = 8
  real(8), allocatable :: a(:), c(:, :), e(:)
  real(8) :: w(4, 3), b(n)
  integer :: i, j
  do i = 1, n
    b(i) = i
  end do
  do j = 1, 3
    do i = 1, 4
      w(i, j) = i + 10 * j
    end do
  end do
  a = b(1:n:2)      ! stride 2: four runs of one element
  c = w(1:2, :)     ! two rows of three columns: three runs of two elements
  e = b(n:1:-1)     ! reversed: eight runs of one element, descending
  print '(a, 3(1x, f0.1))', 'sections', sum(a), sum(c), e(1)
end program sections
