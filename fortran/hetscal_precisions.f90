!> @file hetscal_precisions.f90
!> @brief bind(C) interfaces of hetscal's native calls in single precision, single complex and
!> double complex (include/hetscal/hetscal.h); module hetscal re-exports them beside the
!> double ones and gathers the four precisions under generic names (hetero_gemm, ...).
!>
!> Arguments as the double routines' (module hetscal), with the element type of the
!> precision: REAL(C_FLOAT), COMPLEX(C_FLOAT_COMPLEX), COMPLEX(C_DOUBLE_COMPLEX). Real ALPHA
!> and BETA are passed by value, complex ones by reference (the C interface takes them by
!> pointer). Complex TRANS "C" is the conjugate transpose; hetero_pcunmqr / hetero_pzunmqr
!> take "N" or "C", as PCUNMQR / PZUNMQR.
module hetscal_precisions
  use, intrinsic :: iso_c_binding, only: c_int, c_float, c_char, c_float_complex, &
       c_double_complex
  implicit none
  public

  interface
    ! ---- single precision
    subroutine hetscal_sscatter(m, n, a, ia, ja, desca, h, desch, info) &
         bind(C, name="hetscal_sscatter")
      import :: c_int, c_float
      integer(c_int), value :: m, n, ia, ja
      real(c_float), intent(in) :: a(*)
      integer(c_int), intent(in) :: desca(*), desch(*)
      real(c_float), intent(inout) :: h(*)
      integer(c_int), intent(out) :: info
    end subroutine

    subroutine hetscal_sgather(m, n, a, ia, ja, desca, h, desch, info) &
         bind(C, name="hetscal_sgather")
      import :: c_int, c_float
      integer(c_int), value :: m, n, ia, ja
      real(c_float), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*), desch(*)
      real(c_float), intent(in) :: h(*)
      integer(c_int), intent(out) :: info
    end subroutine

    subroutine hetero_psgemm(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, &
         beta, c, ic, jc, descc, info) bind(C, name="hetero_psgemm")
      import :: c_int, c_float, c_char
      character(kind=c_char), intent(in) :: transa, transb
      integer(c_int), value :: m, n, k, ia, ja, ib, jb, ic, jc
      real(c_float), value :: alpha, beta
      real(c_float), intent(in) :: a(*), b(*)
      real(c_float), intent(inout) :: c(*)
      integer(c_int), intent(in) :: desca(*), descb(*), descc(*)
      integer(c_int), intent(out) :: info
    end subroutine

    integer(c_int) function hetero_psgetrf(m, n, a, ia, ja, desca, ipiv, info) &
         bind(C, name="hetero_psgetrf")
      import :: c_int, c_float
      integer(c_int), value :: m, n, ia, ja
      real(c_float), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(inout) :: ipiv(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_psgetrs(trans, n, nrhs, a, ia, ja, desca, ipiv, b, ib, jb, &
         descb, info) bind(C, name="hetero_psgetrs")
      import :: c_int, c_float, c_char
      character(kind=c_char), intent(in) :: trans
      integer(c_int), value :: n, nrhs, ia, ja, ib, jb
      real(c_float), intent(in) :: a(*)
      integer(c_int), intent(in) :: desca(*), ipiv(*), descb(*)
      real(c_float), intent(inout) :: b(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_psgeqrf(m, n, a, ia, ja, desca, tau, info) &
         bind(C, name="hetero_psgeqrf")
      import :: c_int, c_float
      integer(c_int), value :: m, n, ia, ja
      real(c_float), intent(inout) :: a(*), tau(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_psormqr(side, trans, m, n, k, a, ia, ja, desca, tau, c, &
         ic, jc, descc, info) bind(C, name="hetero_psormqr")
      import :: c_int, c_float, c_char
      character(kind=c_char), intent(in) :: side, trans
      integer(c_int), value :: m, n, k, ia, ja, ic, jc
      real(c_float), intent(in) :: a(*), tau(*)
      integer(c_int), intent(in) :: desca(*), descc(*)
      real(c_float), intent(inout) :: c(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pspotrf(uplo, n, a, ia, ja, desca, info) &
         bind(C, name="hetero_pspotrf")
      import :: c_int, c_float, c_char
      character(kind=c_char), intent(in) :: uplo
      integer(c_int), value :: n, ia, ja
      real(c_float), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pspotrs(uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, &
         info) bind(C, name="hetero_pspotrs")
      import :: c_int, c_float, c_char
      character(kind=c_char), intent(in) :: uplo
      integer(c_int), value :: n, nrhs, ia, ja, ib, jb
      real(c_float), intent(in) :: a(*)
      real(c_float), intent(inout) :: b(*)
      integer(c_int), intent(in) :: desca(*), descb(*)
      integer(c_int), intent(out) :: info
    end function

    ! ---- single complex
    subroutine hetscal_cscatter(m, n, a, ia, ja, desca, h, desch, info) &
         bind(C, name="hetscal_cscatter")
      import :: c_int, c_float_complex
      integer(c_int), value :: m, n, ia, ja
      complex(c_float_complex), intent(in) :: a(*)
      integer(c_int), intent(in) :: desca(*), desch(*)
      complex(c_float_complex), intent(inout) :: h(*)
      integer(c_int), intent(out) :: info
    end subroutine

    subroutine hetscal_cgather(m, n, a, ia, ja, desca, h, desch, info) &
         bind(C, name="hetscal_cgather")
      import :: c_int, c_float_complex
      integer(c_int), value :: m, n, ia, ja
      complex(c_float_complex), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*), desch(*)
      complex(c_float_complex), intent(in) :: h(*)
      integer(c_int), intent(out) :: info
    end subroutine

    subroutine hetero_pcgemm(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, &
         beta, c, ic, jc, descc, info) bind(C, name="hetero_pcgemm")
      import :: c_int, c_float_complex, c_char
      character(kind=c_char), intent(in) :: transa, transb
      integer(c_int), value :: m, n, k, ia, ja, ib, jb, ic, jc
      complex(c_float_complex), intent(in) :: alpha, beta
      complex(c_float_complex), intent(in) :: a(*), b(*)
      complex(c_float_complex), intent(inout) :: c(*)
      integer(c_int), intent(in) :: desca(*), descb(*), descc(*)
      integer(c_int), intent(out) :: info
    end subroutine

    integer(c_int) function hetero_pcgetrf(m, n, a, ia, ja, desca, ipiv, info) &
         bind(C, name="hetero_pcgetrf")
      import :: c_int, c_float_complex
      integer(c_int), value :: m, n, ia, ja
      complex(c_float_complex), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(inout) :: ipiv(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pcgetrs(trans, n, nrhs, a, ia, ja, desca, ipiv, b, ib, jb, &
         descb, info) bind(C, name="hetero_pcgetrs")
      import :: c_int, c_float_complex, c_char
      character(kind=c_char), intent(in) :: trans
      integer(c_int), value :: n, nrhs, ia, ja, ib, jb
      complex(c_float_complex), intent(in) :: a(*)
      integer(c_int), intent(in) :: desca(*), ipiv(*), descb(*)
      complex(c_float_complex), intent(inout) :: b(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pcgeqrf(m, n, a, ia, ja, desca, tau, info) &
         bind(C, name="hetero_pcgeqrf")
      import :: c_int, c_float_complex
      integer(c_int), value :: m, n, ia, ja
      complex(c_float_complex), intent(inout) :: a(*), tau(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pcunmqr(side, trans, m, n, k, a, ia, ja, desca, tau, c, &
         ic, jc, descc, info) bind(C, name="hetero_pcunmqr")
      import :: c_int, c_float_complex, c_char
      character(kind=c_char), intent(in) :: side, trans
      integer(c_int), value :: m, n, k, ia, ja, ic, jc
      complex(c_float_complex), intent(in) :: a(*), tau(*)
      integer(c_int), intent(in) :: desca(*), descc(*)
      complex(c_float_complex), intent(inout) :: c(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pcpotrf(uplo, n, a, ia, ja, desca, info) &
         bind(C, name="hetero_pcpotrf")
      import :: c_int, c_float_complex, c_char
      character(kind=c_char), intent(in) :: uplo
      integer(c_int), value :: n, ia, ja
      complex(c_float_complex), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pcpotrs(uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, &
         info) bind(C, name="hetero_pcpotrs")
      import :: c_int, c_float_complex, c_char
      character(kind=c_char), intent(in) :: uplo
      integer(c_int), value :: n, nrhs, ia, ja, ib, jb
      complex(c_float_complex), intent(in) :: a(*)
      complex(c_float_complex), intent(inout) :: b(*)
      integer(c_int), intent(in) :: desca(*), descb(*)
      integer(c_int), intent(out) :: info
    end function

    ! ---- double complex
    subroutine hetscal_zscatter(m, n, a, ia, ja, desca, h, desch, info) &
         bind(C, name="hetscal_zscatter")
      import :: c_int, c_double_complex
      integer(c_int), value :: m, n, ia, ja
      complex(c_double_complex), intent(in) :: a(*)
      integer(c_int), intent(in) :: desca(*), desch(*)
      complex(c_double_complex), intent(inout) :: h(*)
      integer(c_int), intent(out) :: info
    end subroutine

    subroutine hetscal_zgather(m, n, a, ia, ja, desca, h, desch, info) &
         bind(C, name="hetscal_zgather")
      import :: c_int, c_double_complex
      integer(c_int), value :: m, n, ia, ja
      complex(c_double_complex), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*), desch(*)
      complex(c_double_complex), intent(in) :: h(*)
      integer(c_int), intent(out) :: info
    end subroutine

    subroutine hetero_pzgemm(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, &
         beta, c, ic, jc, descc, info) bind(C, name="hetero_pzgemm")
      import :: c_int, c_double_complex, c_char
      character(kind=c_char), intent(in) :: transa, transb
      integer(c_int), value :: m, n, k, ia, ja, ib, jb, ic, jc
      complex(c_double_complex), intent(in) :: alpha, beta
      complex(c_double_complex), intent(in) :: a(*), b(*)
      complex(c_double_complex), intent(inout) :: c(*)
      integer(c_int), intent(in) :: desca(*), descb(*), descc(*)
      integer(c_int), intent(out) :: info
    end subroutine

    integer(c_int) function hetero_pzgetrf(m, n, a, ia, ja, desca, ipiv, info) &
         bind(C, name="hetero_pzgetrf")
      import :: c_int, c_double_complex
      integer(c_int), value :: m, n, ia, ja
      complex(c_double_complex), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(inout) :: ipiv(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pzgetrs(trans, n, nrhs, a, ia, ja, desca, ipiv, b, ib, jb, &
         descb, info) bind(C, name="hetero_pzgetrs")
      import :: c_int, c_double_complex, c_char
      character(kind=c_char), intent(in) :: trans
      integer(c_int), value :: n, nrhs, ia, ja, ib, jb
      complex(c_double_complex), intent(in) :: a(*)
      integer(c_int), intent(in) :: desca(*), ipiv(*), descb(*)
      complex(c_double_complex), intent(inout) :: b(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pzgeqrf(m, n, a, ia, ja, desca, tau, info) &
         bind(C, name="hetero_pzgeqrf")
      import :: c_int, c_double_complex
      integer(c_int), value :: m, n, ia, ja
      complex(c_double_complex), intent(inout) :: a(*), tau(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pzunmqr(side, trans, m, n, k, a, ia, ja, desca, tau, c, &
         ic, jc, descc, info) bind(C, name="hetero_pzunmqr")
      import :: c_int, c_double_complex, c_char
      character(kind=c_char), intent(in) :: side, trans
      integer(c_int), value :: m, n, k, ia, ja, ic, jc
      complex(c_double_complex), intent(in) :: a(*), tau(*)
      integer(c_int), intent(in) :: desca(*), descc(*)
      complex(c_double_complex), intent(inout) :: c(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pzpotrf(uplo, n, a, ia, ja, desca, info) &
         bind(C, name="hetero_pzpotrf")
      import :: c_int, c_double_complex, c_char
      character(kind=c_char), intent(in) :: uplo
      integer(c_int), value :: n, ia, ja
      complex(c_double_complex), intent(inout) :: a(*)
      integer(c_int), intent(in) :: desca(*)
      integer(c_int), intent(out) :: info
    end function

    integer(c_int) function hetero_pzpotrs(uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, &
         info) bind(C, name="hetero_pzpotrs")
      import :: c_int, c_double_complex, c_char
      character(kind=c_char), intent(in) :: uplo
      integer(c_int), value :: n, nrhs, ia, ja, ib, jb
      complex(c_double_complex), intent(in) :: a(*)
      complex(c_double_complex), intent(inout) :: b(*)
      integer(c_int), intent(in) :: desca(*), descb(*)
      integer(c_int), intent(out) :: info
    end function
  end interface
end module hetscal_precisions
