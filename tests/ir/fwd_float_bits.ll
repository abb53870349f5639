; Floats moved as integer bits (what SROA and instcombine make of small struct copies): a {float, float}
; pair loaded as one i64, split with lshr/trunc, reassembled with zext/shl/or disjoint, and stored. The
; tangent bits take the same path; an integer field whose type-based alias tag says "int" has none.
; main checks the tangent of a.x * a.y at (2, 3) along (1, -1): 3 - 2 = 1, and the copied tangents.
; RUN: %parad -S %s | FileCheck %s
; RUN: %parad %s -o %t.bc && %lli %t.bc
; CHECK-LABEL: define internal { float, float } @fwddiffe.swap_mul.dd(ptr %a, ptr %da, ptr %b, ptr %db)
; CHECK: %[[T:.*]] = load i64, ptr %da
; CHECK: lshr i64 %[[T]], 32
; CHECK: or disjoint i64
; CHECK: store i64 {{.*}}, ptr %db
; CHECK-NOT: load i32, ptr %dn

declare float @__parad_fwddiff(ptr, ...)

define float @swap_mul(ptr %a, ptr %b) {
  %bits = load i64, ptr %a
  %lo = trunc i64 %bits to i32
  %hi64 = lshr i64 %bits, 32
  %hi = trunc i64 %hi64 to i32
  %x = bitcast i32 %lo to float
  %y = bitcast i32 %hi to float
  %p = fmul float %x, %y
  ; store the pair swapped
  %lo64 = zext i32 %lo to i64
  %sh = shl i64 %lo64, 32
  %hz = zext i32 %hi to i64
  %sw = or disjoint i64 %sh, %hz
  store i64 %sw, ptr %b
  ; an integer field next to the floats: a count, not float bits
  %np = getelementptr inbounds i8, ptr %a, i64 8
  %n = load i32, ptr %np, !tbaa !0
  %n1 = add i32 %n, 1
  %nq = getelementptr inbounds i8, ptr %b, i64 8
  store i32 %n1, ptr %nq, !tbaa !0
  ret float %p
}

define i32 @main() {
  %a = alloca { float, float, i32 }
  %da = alloca { float, float, i32 }
  %b = alloca { float, float, i32 }
  %db = alloca { float, float, i32 }
  store { float, float, i32 } { float 2.0, float 3.0, i32 7 }, ptr %a
  store { float, float, i32 } { float 1.0, float -1.0, i32 0 }, ptr %da
  %d = call float (ptr, ...) @__parad_fwddiff(ptr @swap_mul, ptr %a, ptr %da, ptr %b, ptr %db)
  %r = load { float, float, i32 }, ptr %db
  %bx = extractvalue { float, float, i32 } %r, 0
  %by = extractvalue { float, float, i32 } %r, 1
  %c1 = fcmp une float %d, 1.0
  %c2 = fcmp une float %bx, -1.0
  %c3 = fcmp une float %by, 1.0
  %o1 = or i1 %c1, %c2
  %bad = or i1 %o1, %c3
  %rc = zext i1 %bad to i32
  ret i32 %rc
}

!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
