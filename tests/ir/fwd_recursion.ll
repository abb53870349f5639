; Recursion at the IR level: p(x, n) = n == 0 ? 1 : x * p(x, n - 1) = x^n. The tangent function of
; p with pattern "dc" calls itself. main checks d/dx p(1.5, 4) = 4 * 1.5^3 = 13.5.
; RUN: %parad -S %s | FileCheck %s
; RUN: %parad %s -o %t.bc && %lli %t.bc
; CHECK: define internal { double, double } @fwddiffe.p.dc(double %x, double %dx, i32 %n)
; CHECK: call { double, double } @fwddiffe.p.dc(double %x, double %dx, i32 %m)

declare double @__parad_fwddiff(ptr, ...)

define double @p(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret double 1.0
rec:
  %m = sub i32 %n, 1
  %r = call double @p(double %x, i32 %m)
  %v = fmul double %x, %r
  ret double %v
}

define i32 @main() {
  %d = call double (ptr, ...) @__parad_fwddiff(ptr @p, double 1.5, double 1.0, i32 4)
  %bad = fcmp une double %d, 13.5
  %rc = zext i1 %bad to i32
  ret i32 %rc
}
