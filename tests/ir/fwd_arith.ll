; Forward mode of arithmetic and casts at the IR level: f(x) = (x*x - x/3) rem 5 + fpext(fptrunc(-x)).
; The tangent function keeps f's arguments, adds one tangent after x, and returns {f(x), f'(x)}; main
; checks f'(1.5) against the analytic value 2x - 1/3 - 1 = 1.6666... (tolerance 1e-6: one float cast).
; RUN: %parad -S %s | FileCheck %s
; RUN: %parad %s -o %t.bc && %lli %t.bc
; CHECK: define internal { double, double } @fwddiffe.f.d(double %x, double %dx)
; CHECK: fmul double %dx, %x
; CHECK: fptrunc double {{.*}} to float
; CHECK: fpext float {{.*}} to double

declare double @__parad_fwddiff(ptr, ...)

define double @f(double %x) {
  %sq = fmul double %x, %x
  %third = fdiv double %x, 3.0
  %d = fsub double %sq, %third
  %r = frem double %d, 5.0
  %n = fneg double %x
  %t = fptrunc double %n to float
  %e = fpext float %t to double
  %s = fadd double %r, %e
  ret double %s
}

define i32 @main() {
  %d = call double (ptr, ...) @__parad_fwddiff(ptr @f, double 1.5, double 1.0)
  %err = fsub double %d, 0x3FFAAAAAAAAAAAAB
  %abs = call double @llvm.fabs.f64(double %err)
  %bad = fcmp ugt double %abs, 1.0e-6
  %rc = zext i1 %bad to i32
  ret i32 %rc
}

declare double @llvm.fabs.f64(double)
