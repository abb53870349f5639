; Refusals at the IR level, one function each; every one is reported in one run, with file:line:col
; where the IR has locations and the function either way, and parad writes no output.
; RUN: rm -f %t && not %parad %s -o %t 2>&1 | FileCheck %s
; RUN: test ! -e %t
; CHECK-DAG: refusals.c:7:3: error: cannot differentiate a call to 'ext', which no file of the program compiled by parad-cc defines, with an active argument (#1) in forward mode: give it a body, or register a derivative (__parad_register_derivative_ext, in a file the link takes: a static library's member that nothing calls into is left out), or, if no derivative goes through it (output, logging), declare it inactive (void *__enzyme_inactivefn[] = {(void *)ext};) in function 'calls_ext'
; CHECK-DAG: parad: error: cannot store an active value into memory without a shadow (the global variable 'g', which has no shadow: Parad gives one to a global of floats and integers that the file defines (not thread-local)) in function 'to_global'
; CHECK-DAG: parad: error: cannot differentiate integer arithmetic on the bits of an active floating-point value (a bit trick, as a fast inverse square root: register a derivative for the function that does it, __parad_register_gradient_NAME or __parad_register_derivative_NAME) in function 'bits'
; CHECK-DAG: parad: error: cannot differentiate a call to the variadic function 'varargs' with active arguments in function 'callvar'
; CHECK: parad: 4 errors, no output written

declare double @__parad_fwddiff(ptr, ...)
declare double @ext(double)
@g = external global double

define double @calls_ext(double %x) !dbg !5 {
  %r = call double @ext(double %x), !dbg !8
  ret double %r
}

define double @to_global(double %x) {
  store double %x, ptr @g
  ret double %x
}

define double @bits(double %x) {
  %i = bitcast double %x to i64
  %j = lshr i64 %i, 1
  %y = bitcast i64 %j to double
  ret double %y
}

define double @varargs(i32 %n, ...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  %v = va_arg ptr %ap, double
  ret double %v
}
declare void @llvm.va_start.p0(ptr)

define double @callvar(double %x) {
  %r = call double (i32, ...) @varargs(i32 1, double %x)
  ret double %r
}

define void @main(ptr %fp) {
  %a = call double (ptr, ...) @__parad_fwddiff(ptr @calls_ext, double 1.0, double 1.0)
  %b = call double (ptr, ...) @__parad_fwddiff(ptr @to_global, double 1.0, double 1.0)
  %d = call double (ptr, ...) @__parad_fwddiff(ptr @bits, double 1.0, double 1.0)
  %e = call double (ptr, ...) @__parad_fwddiff(ptr @callvar, double 1.0, double 1.0)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "refusals.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "calls_ext", scope: !1, file: !1, line: 5, type: !6, scopeLine: 5, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 7, column: 3, scope: !5)
