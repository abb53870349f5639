; Snapshots (reverse/rev_snapshot.c) of reads in an inner loop nested in the loop whose runs are copied:
; the forward sweep notes the range each read covers. Where the inner loop is counted, the read is made
; in every iteration and its address moves by the same amount in each, the range of a run is that of its
; first and last addresses, noted once as the run starts; elsewhere it is widened read by read. Shapes:
; a 64-bit index going up (per run), an `int` index with a signed step that cannot wrap (per run), one
; going down to 0 (per run), an `int` sum that may wrap under its sign extension (read by read: the
; extended address need not move evenly), a read made only where a condition holds (read by read: the
; first or last iteration's address may not be read). A gather a[col[k]] whose index is read at
; consecutive k in every iteration of the inner loop: the stretch of col each run reads (the runtime
; scans it for the range), unless the nest writes col (read by read). The gradients of these shapes are
; checked in tests/rev/snapshot_runs.c and tests/rev/snapshot_gathers.c; here the decision is checked on
; fixed IR.
; RUN: env PARAD_PLAN=1 %parad -S %s -o /dev/null 2>&1 | FileCheck %s
; CHECK-DAG: snapshot in up64: %v = load double, ptr %pa, align 8: range noted per run of its loop
; CHECK-DAG: snapshot in up32: %v = load double, ptr %pa, align 8: range noted per run of its loop
; CHECK-DAG: snapshot in down64: %v = load double, ptr %pa, align 8: range noted per run of its loop
; CHECK-DAG: snapshot in wraps32: %v = load double, ptr %pa, align 8: range widened read by read
; CHECK-DAG: snapshot in some: %v = load double, ptr %pa, align 8: range widened read by read
; CHECK-DAG: snapshot in csr: %v = load double, ptr %pa, align 8: range noted per run of its index array
; CHECK-DAG: snapshot in csr_rewritten: %v = load double, ptr %pa, align 8: range widened read by read

; J = sum_i sum_j a[j] c[8 i + j] (a read in the inner loop), then a[0] = 0: a is overwritten after the nest
define double @up64(ptr noalias %a, ptr noalias %c, i32 %off) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %row = mul nuw nsw i64 %i, 8
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %s = phi double [ 0.0, %outer ], [ %s.next, %inner ]
  %jw = add i64 %j, 0
  %pa = getelementptr inbounds double, ptr %a, i64 %j
  %v = load double, ptr %pa, align 8
  %k = add nuw nsw i64 %row, %jw
  %pc = getelementptr inbounds double, ptr %c, i64 %k
  %w = load double, ptr %pc, align 8
  %m = fmul double %v, %w
  %s.next = fadd double %s, %m
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, 8
  br i1 %done, label %after, label %inner

after:
  %acc.next = fadd double %acc, %s.next
  %i.next = add nuw nsw i64 %i, 1
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  store double 0.0, ptr %a, align 8
  ret double %acc.next
}

define void @grad_up64(ptr %a, ptr %da, ptr %c, ptr %dc) {
  call void (ptr, ...) @__parad_autodiff(ptr @up64, ptr %a, ptr %da, ptr %c, ptr %dc, i32 0)
  ret void
}

; J = sum_i sum_j a[j] c[8 i + j] (a read in the inner loop), then a[0] = 0: a is overwritten after the nest
define double @up32(ptr noalias %a, ptr noalias %c, i32 %off) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %row = mul nuw nsw i64 %i, 8
  br label %inner

inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %s = phi double [ 0.0, %outer ], [ %s.next, %inner ]
  %jw = sext i32 %j to i64
  %pa = getelementptr inbounds double, ptr %a, i64 %jw
  %v = load double, ptr %pa, align 8
  %k = add nuw nsw i64 %row, %jw
  %pc = getelementptr inbounds double, ptr %c, i64 %k
  %w = load double, ptr %pc, align 8
  %m = fmul double %v, %w
  %s.next = fadd double %s, %m
  %j.next = add nsw i32 %j, 1
  %done = icmp eq i32 %j.next, 8
  br i1 %done, label %after, label %inner

after:
  %acc.next = fadd double %acc, %s.next
  %i.next = add nuw nsw i64 %i, 1
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  store double 0.0, ptr %a, align 8
  ret double %acc.next
}

define void @grad_up32(ptr %a, ptr %da, ptr %c, ptr %dc) {
  call void (ptr, ...) @__parad_autodiff(ptr @up32, ptr %a, ptr %da, ptr %c, ptr %dc, i32 0)
  ret void
}

; J = sum_i sum_j a[j] c[8 i + j] (a read in the inner loop), then a[0] = 0: a is overwritten after the nest
define double @down64(ptr noalias %a, ptr noalias %c, i32 %off) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %row = mul nuw nsw i64 %i, 8
  br label %inner

inner:
  %j = phi i64 [ 7, %outer ], [ %j.next, %inner ]
  %s = phi double [ 0.0, %outer ], [ %s.next, %inner ]
  %jw = add i64 %j, 0
  %pa = getelementptr inbounds double, ptr %a, i64 %j
  %v = load double, ptr %pa, align 8
  %k = add nuw nsw i64 %row, %jw
  %pc = getelementptr inbounds double, ptr %c, i64 %k
  %w = load double, ptr %pc, align 8
  %m = fmul double %v, %w
  %s.next = fadd double %s, %m
  %j.next = add nsw i64 %j, -1
  %done = icmp eq i64 %j, 0
  br i1 %done, label %after, label %inner

after:
  %acc.next = fadd double %acc, %s.next
  %i.next = add nuw nsw i64 %i, 1
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  store double 0.0, ptr %a, align 8
  ret double %acc.next
}

define void @grad_down64(ptr %a, ptr %da, ptr %c, ptr %dc) {
  call void (ptr, ...) @__parad_autodiff(ptr @down64, ptr %a, ptr %da, ptr %c, ptr %dc, i32 0)
  ret void
}

; J = sum_i sum_j a[j] c[8 i + j] (a read in the inner loop), then a[0] = 0: a is overwritten after the nest
define double @wraps32(ptr noalias %a, ptr noalias %c, i32 %off) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %row = mul nuw nsw i64 %i, 8
  br label %inner

inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %s = phi double [ 0.0, %outer ], [ %s.next, %inner ]
  %jw = sext i32 %j to i64
  %sum = add i32 %j, %off
  %se = sext i32 %sum to i64
  %pa = getelementptr inbounds double, ptr %a, i64 %se
  %v = load double, ptr %pa, align 8
  %k = add nuw nsw i64 %row, %jw
  %pc = getelementptr inbounds double, ptr %c, i64 %k
  %w = load double, ptr %pc, align 8
  %m = fmul double %v, %w
  %s.next = fadd double %s, %m
  %j.next = add nsw i32 %j, 1
  %done = icmp eq i32 %j.next, 8
  br i1 %done, label %after, label %inner

after:
  %acc.next = fadd double %acc, %s.next
  %i.next = add nuw nsw i64 %i, 1
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  store double 0.0, ptr %a, align 8
  ret double %acc.next
}

define void @grad_wraps32(ptr %a, ptr %da, ptr %c, ptr %dc) {
  call void (ptr, ...) @__parad_autodiff(ptr @wraps32, ptr %a, ptr %da, ptr %c, ptr %dc, i32 0)
  ret void
}

; J = sum_i sum_j a[j] c[8 i + j] (a read in the inner loop), then a[0] = 0: a is overwritten after the nest
define double @some(ptr noalias %a, ptr noalias %c, i32 %off) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %row = mul nuw nsw i64 %i, 8
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %latch ]
  %s = phi double [ 0.0, %outer ], [ %s.next, %latch ]
  %jw = add i64 %j, 0
  %k = add nuw nsw i64 %row, %jw
  %pc = getelementptr inbounds double, ptr %c, i64 %k
  %w = load double, ptr %pc, align 8
  %pos = fcmp ogt double %w, 0.0
  br i1 %pos, label %use, label %latch

use:
  %pa = getelementptr inbounds double, ptr %a, i64 %j
  %v = load double, ptr %pa, align 8
  %m = fmul double %v, %w
  br label %latch

latch:
  %t = phi double [ %m, %use ], [ 0.0, %inner ]
  %s.next = fadd double %s, %t
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, 8
  br i1 %done, label %after, label %inner

after:
  %acc.next = fadd double %acc, %s.next
  %i.next = add nuw nsw i64 %i, 1
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  store double 0.0, ptr %a, align 8
  ret double %acc.next
}

define void @grad_some(ptr %a, ptr %da, ptr %c, ptr %dc) {
  call void (ptr, ...) @__parad_autodiff(ptr @some, ptr %a, ptr %da, ptr %c, ptr %dc, i32 0)
  ret void
}

; J = sum_i sum_{k in [ptr[i], ptr[i+1])} a[col[k]] c[k], then a[0] = 0
define double @csr(ptr noalias %a, ptr noalias %c, ptr noalias %ptr, ptr noalias %col) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %pk = getelementptr inbounds i32, ptr %ptr, i64 %i
  %k0 = load i32, ptr %pk, align 4, !tbaa !1
  %i.next = add nuw nsw i64 %i, 1
  %pk1 = getelementptr inbounds i32, ptr %ptr, i64 %i.next
  %k1 = load i32, ptr %pk1, align 4, !tbaa !1
  %any = icmp slt i32 %k0, %k1
  br i1 %any, label %pre, label %after

pre:
  %lo = sext i32 %k0 to i64
  %hi = sext i32 %k1 to i64
  br label %inner

inner:
  %k = phi i64 [ %lo, %pre ], [ %k.next, %inner ]
  %s = phi double [ 0.0, %pre ], [ %s.next, %inner ]
  %pcol = getelementptr inbounds i32, ptr %col, i64 %k
  %j = load i32, ptr %pcol, align 4, !tbaa !1
  %jw = sext i32 %j to i64
  %pa = getelementptr inbounds double, ptr %a, i64 %jw
  %v = load double, ptr %pa, align 8
  %pc = getelementptr inbounds double, ptr %c, i64 %k
  %w = load double, ptr %pc, align 8
  %m = fmul double %v, %w
  %s.next = fadd double %s, %m
  %k.next = add nsw i64 %k, 1
  %done = icmp eq i64 %k.next, %hi
  br i1 %done, label %row.end, label %inner

row.end:
  %s.last = phi double [ %s.next, %inner ]
  br label %after

after:
  %t = phi double [ 0.0, %outer ], [ %s.last, %row.end ]
  %acc.next = fadd double %acc, %t
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  store double 0.0, ptr %a, align 8
  ret double %acc.next
}

define void @grad_csr(ptr %a, ptr %da, ptr %c, ptr %dc, ptr %ptr, ptr %dptr, ptr %col, ptr %dcol) {
  call void (ptr, ...) @__parad_autodiff(ptr @csr, ptr %a, ptr %da, ptr %c, ptr %dc, ptr %ptr, ptr %dptr, ptr %col, ptr %dcol)
  ret void
}

; the same, but each index is rewritten once read: the stretch no longer holds what the gathers read
define double @csr_rewritten(ptr noalias %a, ptr noalias %c, ptr noalias %ptr, ptr noalias %col) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %pk = getelementptr inbounds i32, ptr %ptr, i64 %i
  %k0 = load i32, ptr %pk, align 4, !tbaa !1
  %i.next = add nuw nsw i64 %i, 1
  %pk1 = getelementptr inbounds i32, ptr %ptr, i64 %i.next
  %k1 = load i32, ptr %pk1, align 4, !tbaa !1
  %any = icmp slt i32 %k0, %k1
  br i1 %any, label %pre, label %after

pre:
  %lo = sext i32 %k0 to i64
  %hi = sext i32 %k1 to i64
  br label %inner

inner:
  %k = phi i64 [ %lo, %pre ], [ %k.next, %inner ]
  %s = phi double [ 0.0, %pre ], [ %s.next, %inner ]
  %pcol = getelementptr inbounds i32, ptr %col, i64 %k
  %j = load i32, ptr %pcol, align 4, !tbaa !1
  store i32 0, ptr %pcol, align 4, !tbaa !1
  %jw = sext i32 %j to i64
  %pa = getelementptr inbounds double, ptr %a, i64 %jw
  %v = load double, ptr %pa, align 8
  %pc = getelementptr inbounds double, ptr %c, i64 %k
  %w = load double, ptr %pc, align 8
  %m = fmul double %v, %w
  %s.next = fadd double %s, %m
  %k.next = add nsw i64 %k, 1
  %done = icmp eq i64 %k.next, %hi
  br i1 %done, label %row.end, label %inner

row.end:
  %s.last = phi double [ %s.next, %inner ]
  br label %after

after:
  %t = phi double [ 0.0, %outer ], [ %s.last, %row.end ]
  %acc.next = fadd double %acc, %t
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  store double 0.0, ptr %a, align 8
  ret double %acc.next
}

define void @grad_csr_rewritten(ptr %a, ptr %da, ptr %c, ptr %dc, ptr %ptr, ptr %dptr, ptr %col, ptr %dcol) {
  call void (ptr, ...) @__parad_autodiff(ptr @csr_rewritten, ptr %a, ptr %da, ptr %c, ptr %dc, ptr %ptr, ptr %dptr, ptr %col, ptr %dcol)
  ret void
}

declare void @__parad_autodiff(ptr, ...)

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!2, !2, i64 0}
!2 = !{!"int", !3, i64 0}
!3 = !{!"omnipotent char", !0, i64 0}
