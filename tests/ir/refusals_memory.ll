; More refusals at the IR level: pointers that would lose their shadow, data that cannot be
; differentiated in memory, and derivative requests that wait on each other. An invoke whose landing pad
; only cleans up is not refused: the path on which nothing throws is differentiated ('throws'). (A phi choosing between active memory and a global only loaded from needs no shadow of the
; global: a stand-in serves, or the global itself with each load comparing addresses; written through,
; as here, it would need one of the global's size.)
; RUN: rm -f %t && not %parad %s -o %t 2>&1 | FileCheck %s
; RUN: test ! -e %t
; CHECK-DAG: error: cannot differentiate a pointer rebuilt from the integer address of active memory (inttoptr): its shadow is lost in function 'roundtrip'
; CHECK-DAG: error: the pointer stored here into memory with derivatives needs a shadow for memory that has none: the global variable 'table', which has no shadow: Parad gives one to a global of floats and integers that the file defines (not thread-local) in function 'stores_global_address'
; CHECK-DAG: error: cannot store an active value into memory without a shadow (parameter 2 of 'writes_const', passed as constant; pass it with parad_dup and a shadow) in function 'writes_const'
; CHECK-DAG: error: cannot differentiate a compare-and-swap of active data (`#pragma omp atomic` with *= or /=, an atomic min or max, an _Atomic float's *= or /=); use a reduction clause (reduction(*:p), reduction(max:m)), or an atomic += or -= (`#pragma omp atomic`, __atomic_fetch_add, an _Atomic float's +=) in function 'cas'
; CHECK-DAG: error: cannot differentiate this atomic floating-point maximum {{.*}} in function 'atomic_max'
; CHECK-DAG: error: cannot differentiate a function that asks, directly or through the functions it calls, for a derivative of itself in function 'selfish'
; CHECK-DAG: error: cannot differentiate a function that asks, directly or through the functions it calls, for a derivative of itself in function 'main'
; CHECK-DAG: error: this pointer phi needs a shadow for memory that has none: the global variable 'table', which has no shadow: Parad gives one to a global of floats and integers that the file defines (not thread-local) in function 'mixed_phi'
; CHECK-NOT: exception handling
; CHECK: parad: 8 errors, no output written

declare double @__parad_fwddiff(ptr, ...)
@parad_const = external global i32
@table = external global [4 x double]

define double @roundtrip(ptr %x) {
  %i = ptrtoint ptr %x to i64
  %j = add i64 %i, 8
  %p = inttoptr i64 %j to ptr
  %v = load double, ptr %p
  ret double %v
}

define double @stores_global_address(ptr %slot, double %v) {
  store double %v, ptr %slot
  %f = getelementptr inbounds i8, ptr %slot, i64 8
  store ptr @table, ptr %f
  ret double %v
}

define double @writes_const(double %x, ptr %out) {
  store double %x, ptr %out
  ret double %x
}

define double @cas(ptr %x) {
  %r = cmpxchg ptr %x, double 1.0, double 2.0 seq_cst seq_cst
  %v = extractvalue { double, i1 } %r, 0
  ret double %v
}

define double @atomic_max(ptr %x, double %v) {
  %old = atomicrmw fmax ptr %x, double %v seq_cst
  ret double %old
}

declare void @may_throw(double)
declare i32 @__gxx_personality_v0(...)

define double @throws(double %x) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw(double 1.0) to label %ok unwind label %lpad
ok:
  ret double %x
lpad:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

define double @selfish(double %x) {
  %d = call double (ptr, ...) @__parad_fwddiff(ptr @selfish, double %x, double 1.0)
  %y = fmul double %x, %d
  ret double %y
}

define double @mixed_phi(ptr %x, i1 %c, i64 %i) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %p = phi ptr [ %x, %a ], [ @table, %b ]
  %q = getelementptr double, ptr %p, i64 %i
  %v = load double, ptr %q
  %w = fmul double %v, %v
  store double %w, ptr %q
  ret double %v
}

define void @main(ptr %x, ptr %dx, ptr %slot, ptr %dslot) {
  %c = load i32, ptr @parad_const
  %r1 = call double (ptr, ...) @__parad_fwddiff(ptr @roundtrip, ptr %x, ptr %dx)
  %r2 = call double (ptr, ...) @__parad_fwddiff(ptr @stores_global_address, ptr %slot, ptr %dslot, double 1.0, double 1.0)
  %r3 = call double (ptr, ...) @__parad_fwddiff(ptr @writes_const, double 1.0, double 1.0, i32 %c, ptr %slot)
  %r4 = call double (ptr, ...) @__parad_fwddiff(ptr @cas, ptr %x, ptr %dx)
  %r5 = call double (ptr, ...) @__parad_fwddiff(ptr @atomic_max, ptr %x, ptr %dx, double 1.0, double 1.0)
  %r6 = call double (ptr, ...) @__parad_fwddiff(ptr @throws, double 1.0, double 1.0)
  %r7 = call double (ptr, ...) @__parad_fwddiff(ptr @selfish, double 1.0, double 1.0)
  %r8 = call double (ptr, ...) @__parad_fwddiff(ptr @mixed_phi, ptr %x, ptr %dx, i1 true, i64 1)
  ret void
}
