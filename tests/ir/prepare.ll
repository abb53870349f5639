; ad_prepare alone: a user call with markers becomes a canonical request whose declaration carries the
; mode, width and one activity letter per parameter; float arguments promoted by the variadic call are
; converted back to the parameter type, and the marker loads are gone. The declaration is nounwind (a
; derivative does not throw; inlined into C++ code with destructors, the request stays a call).
; RUN: %parad -S --stage=prepare %s | FileCheck %s
; CHECK: call float @__parad.request.0(ptr @f, ptr %a, ptr %da, float 2.000000e+00, float 1.000000e+00, i32 3)
; CHECK-NOT: load i32, ptr @enzyme_const
; CHECK: attributes {{.*}} = { nounwind "parad-activity"="ddc" "parad-entry"="__enzyme_fwddiff" "parad-mode"="forward" "parad-tape"="direct" "parad-width"="1" }

declare float @__enzyme_fwddiff(ptr, ...)
@enzyme_const = external global i32

define float @f(ptr %p, float %x, i32 %n) {
  %v = load float, ptr %p
  %r = fmul float %v, %x
  ret float %r
}

define float @main_like(ptr %a, ptr %da) {
  %c = load i32, ptr @enzyme_const
  %t = call float (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %a, ptr %da, double 2.0, double 1.0, i32 %c, i32 3)
  ret float %t
}
