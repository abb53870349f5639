; Memory at the IR level: a local array (alloca) gets a zeroed shadow alloca, a memcpy from active
; memory is mirrored on the shadows, and address arithmetic (getelementptr) is repeated on the shadow.
; main checks d/dx[1] of sum_k tmp[k]^2 with tmp a copy of x, at x = (3, 5): 2 * 5 = 10.
; RUN: %parad -S %s | FileCheck %s
; RUN: %parad %s -o %t.bc && %lli %t.bc
; CHECK-LABEL: define internal { double, double } @fwddiffe.h.d(ptr %x, ptr %dx)
; CHECK: %tmp = alloca [2 x double]
; CHECK: %shadow = alloca [2 x double]
; CHECK: call void @llvm.memset.p0.i64(ptr align 8 %shadow, i8 0, i64 16, i1 false)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr %shadow, ptr %dx, i64 16, i1 false)
; CHECK: getelementptr inbounds double, ptr %shadow, i64 1

declare double @__parad_fwddiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @h(ptr %x) {
  %tmp = alloca [2 x double], align 8
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %x, i64 16, i1 false)
  %a = load double, ptr %tmp
  %p1 = getelementptr inbounds double, ptr %tmp, i64 1
  %b = load double, ptr %p1
  %aa = fmul double %a, %a
  %bb = fmul double %b, %b
  %s = fadd double %aa, %bb
  ret double %s
}

define i32 @main() {
  %x = alloca [2 x double]
  %dx = alloca [2 x double]
  store [2 x double] [double 3.0, double 5.0], ptr %x
  store [2 x double] [double 0.0, double 1.0], ptr %dx
  %d = call double (ptr, ...) @__parad_fwddiff(ptr @h, ptr %x, ptr %dx)
  %bad = fcmp une double %d, 10.0
  %rc = zext i1 %bad to i32
  ret i32 %rc
}
