; Vector forward mode at the IR level: width 4 over g(x, y) = x*y + sin(x). The tangent of a float is a
; <4 x double>, so the product rule is two vector multiplies; a duplicated scalar takes 4 tangent
; arguments. main checks all four lanes of the result struct against (y + cos x, x) directions.
; RUN: %parad -S %s | FileCheck %s
; RUN: %parad %s -o %t.bc && %lli %t.bc
; CHECK: define internal { double, <4 x double> } @fwddiffe4.g.dd(double %x, double %dx.0, double %dx.1, double %dx.2, double %dx.3, double %y, double %dy.0, double %dy.1, double %dy.2, double %dy.3)
; CHECK: fmul <4 x double>
; CHECK: fadd <4 x double>

declare { double, double, double, double } @__parad_fwddiff4(ptr, ...)
@parad_width = external global i32

define double @g(double %x, double %y) {
  %p = fmul double %x, %y
  %s = call double @sin(double %x)
  %r = fadd double %p, %s
  ret double %r
}

declare double @sin(double)
declare double @cos(double)

define i32 @main() {
  %w = load i32, ptr @parad_width
  ; directions: (1,0), (0,1), (1,1), (2,-1) at x = 0.5, y = 2
  %t = call { double, double, double, double } (ptr, ...) @__parad_fwddiff4(ptr @g, i32 %w, i32 4,
         double 0.5, double 1.0, double 0.0, double 1.0, double 2.0,
         double 2.0, double 0.0, double 1.0, double 1.0, double -1.0)
  %c = call double @cos(double 0.5)
  %gx = fadd double %c, 2.0
  %l0 = extractvalue { double, double, double, double } %t, 0
  %l1 = extractvalue { double, double, double, double } %t, 1
  %l2 = extractvalue { double, double, double, double } %t, 2
  %l3 = extractvalue { double, double, double, double } %t, 3
  %w2 = fadd double %gx, 0.5
  %gx2 = fmul double %gx, 2.0
  %w3 = fsub double %gx2, 0.5
  %e0 = fsub double %l0, %gx
  %e1 = fsub double %l1, 0.5
  %e2 = fsub double %l2, %w2
  %e3 = fsub double %l3, %w3
  %a0 = call double @llvm.fabs.f64(double %e0)
  %a1 = call double @llvm.fabs.f64(double %e1)
  %a2 = call double @llvm.fabs.f64(double %e2)
  %a3 = call double @llvm.fabs.f64(double %e3)
  %m01 = call double @llvm.maxnum.f64(double %a0, double %a1)
  %m23 = call double @llvm.maxnum.f64(double %a2, double %a3)
  %m = call double @llvm.maxnum.f64(double %m01, double %m23)
  %bad = fcmp ugt double %m, 1.0e-12
  %rc = zext i1 %bad to i32
  ret i32 %rc
}

declare double @llvm.fabs.f64(double)
declare double @llvm.maxnum.f64(double, double)
