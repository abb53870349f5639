; A loop with an early exit at the IR level: accumulate s += x[i]*x[i] until s > 10 or i == n. The
; tangent phi of s is carried around the loop and out through both exits. main checks the directional
; derivative along (1,1,1,1) at x = (1, 2, 3, 4): the exit happens after i = 2 (s = 14), ds = 2*(1+2+3).
; RUN: %parad -S %s | FileCheck %s
; RUN: %parad %s -o %t.bc && %lli %t.bc
; CHECK-LABEL: define internal { double, double } @fwddiffe.acc.dc(ptr %x, ptr %dx, i64 %n)
; CHECK: loop:
; CHECK: phi double [ 0.000000e+00, %entry ]
; CHECK: found:
; CHECK: phi double

declare double @__parad_fwddiff(ptr, ...)
@parad_const = external global i32

define double @acc(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %s = phi double [ 0.0, %entry ], [ %s1, %next ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %big = fcmp ogt double %s1, 10.0
  br i1 %big, label %found, label %next
next:
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
found:
  %r = phi double [ %s1, %loop ]
  ret double %r
exit:
  %neg = fneg double %s1
  ret double %neg
}

define i32 @main() {
  %x = alloca [4 x double]
  %dx = alloca [4 x double]
  store [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0], ptr %x
  store [4 x double] [double 1.0, double 1.0, double 1.0, double 1.0], ptr %dx
  %c = load i32, ptr @parad_const
  %d = call double (ptr, ...) @__parad_fwddiff(ptr @acc, ptr %x, ptr %dx, i32 %c, i64 4)
  %bad = fcmp une double %d, 12.0
  %rc = zext i1 %bad to i32
  ret i32 %rc
}
