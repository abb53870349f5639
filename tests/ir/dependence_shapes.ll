; The dependence test (analysis/dependence.c) on shapes the optimiser makes and C source cannot pin down:
; a loop's limit 4 i + 1 written as an `or disjoint`, which must be modelled as a sum. Where the store
; after the loop writes x[4 i], one of the elements the loop read, the read must stay recorded (no
; "never" for or_bound: modelling the or as 4 i - 1 claims it); where it writes x[4 i + 1], no store ever
; reaches a read, and the test must see it. The gradients of such loops are checked against finite
; differences in tests/rev/tiled_finished_values.c; here the analysis's answer is checked on fixed IR.
; RUN: env PARAD_PLAN=1 %parad -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAY
; RUN: env PARAD_PLAN=1 %parad -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEVER
; MAY-NOT: dependence in or_bound:
; NEVER: dependence in or_finished: a store never overwrites what a load read

; x[j] for j < 4 i + 1, then x[4 i] stored: the store overwrites a read
define double @or_bound(ptr noalias %x) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %shl = shl nuw nsw i64 %i, 2
  %lim = or disjoint i64 %shl, 1
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %s = phi double [ 0.0, %outer ], [ %s.next, %inner ]
  %pj = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %pj, align 8
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, %lim
  br i1 %done, label %after, label %inner

after:
  %pi = getelementptr inbounds double, ptr %x, i64 %shl
  store double %s.next, ptr %pi, align 8
  %acc.next = fadd double %acc, %s.next
  %i.next = add nuw nsw i64 %i, 1
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  ret double %acc.next
}


define void @grad(ptr %x, ptr %dx) {
  call void (ptr, ...) @__parad_autodiff(ptr @or_bound, ptr %x, ptr %dx)
  ret void
}

; x[j] for j < 4i + 1, then x[4i + 1] stored: later stores never reach what was read
define double @or_finished(ptr noalias %x) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %after ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %after ]
  %shl = shl nuw nsw i64 %i, 2
  %lim = or disjoint i64 %shl, 1
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %s = phi double [ 0.0, %outer ], [ %s.next, %inner ]
  %pj = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %pj, align 8
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %j.next = add nuw nsw i64 %j, 1
  %done = icmp eq i64 %j.next, %lim
  br i1 %done, label %after, label %inner

after:
  %pi = getelementptr inbounds double, ptr %x, i64 %lim
  store double %s.next, ptr %pi, align 8
  %acc.next = fadd double %acc, %s.next
  %i.next = add nuw nsw i64 %i, 1
  %end = icmp eq i64 %i.next, 4
  br i1 %end, label %exit, label %outer

exit:
  ret double %acc.next
}


define void @grad2(ptr %x, ptr %dx) {
  call void (ptr, ...) @__parad_autodiff(ptr @or_finished, ptr %x, ptr %dx)
  ret void
}

declare void @__parad_autodiff(ptr, ...)
