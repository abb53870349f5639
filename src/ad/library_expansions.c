/* C library calls written out as the code Parad differentiates (see the header). */
#include "ad/library_expansions.h"

#include <llvm-c/DebugInfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "ir/ir.h"

typedef enum { NOT_EXPANDED, CHECKED_COPY, CHECKED_MOVE, CHECKED_SET, SINCOS, REALLOCARRAY, BSEARCH } Expansion;

static Expansion expansion_of(LLVMValueRef call) {
  if (!ir_is_call(call)) return NOT_EXPANDED;
  const char *name = ir_called_name(call);
  unsigned n = ir_num_call_args(call);
  if (n == 4 && !strcmp(name, "__memcpy_chk")) return CHECKED_COPY;
  if (n == 4 && !strcmp(name, "__memmove_chk")) return CHECKED_MOVE;
  if (n == 4 && !strcmp(name, "__memset_chk")) return CHECKED_SET;
  if (n == 3 && (!strcmp(name, "sincos") || !strcmp(name, "sincosf") || !strcmp(name, "sincosl"))) return SINCOS;
  if (n == 3 && !strcmp(name, "reallocarray")) return REALLOCARRAY;
  if (n == 5 && !strcmp(name, "bsearch")) return BSEARCH;
  return NOT_EXPANDED;
}

static LLVMValueRef declared(LLVMModuleRef m, const char *name, LLVMTypeRef type) {
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  return f ? f : LLVMAddFunction(m, name, type);
}

/* n past the destination's room: __chk_fail (a block of its own), else the plain copy, which returns d. */
static void expand_checked(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call, Expansion e) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef d = LLVMGetArgOperand(call, 0), s = LLVMGetArgOperand(call, 1), n = LLVMGetArgOperand(call, 2),
               room = LLVMGetArgOperand(call, 3);
  LLVMBasicBlockRef head = cfg_split_before(c, call), join = LLVMGetInstructionParent(call); /* head: no terminator */
  LLVMBasicBlockRef fail = LLVMInsertBasicBlockInContext(c, join, "");
  LLVMPositionBuilderAtEnd(b, head);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGT, n, LLVMBuildZExtOrBitCast(b, room, LLVMTypeOf(n), ""), ""), fail, join);
  LLVMPositionBuilderAtEnd(b, fail);
  LLVMTypeRef fail_type = LLVMFunctionType(LLVMVoidTypeInContext(c), NULL, 0, 0);
  LLVMValueRef stop = LLVMBuildCall2(b, fail_type, declared(m, "__chk_fail", fail_type), NULL, 0, "");
  LLVMAddCallSiteAttribute(stop, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c, ir_attr_kind("noreturn"), 0));
  LLVMBuildUnreachable(b);
  LLVMPositionBuilderBefore(b, call);
  if (e == CHECKED_COPY) LLVMBuildMemCpy(b, d, 1, s, 1, n);
  else if (e == CHECKED_MOVE) LLVMBuildMemMove(b, d, 1, s, 1, n);
  else LLVMBuildMemSet(b, d, LLVMBuildTrunc(b, s, LLVMInt8TypeInContext(c), ""), n, 1);
  LLVMReplaceAllUsesWith(call, d);
}

static void expand_sincos(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call) {
  LLVMValueRef x = LLVMGetArgOperand(call, 0);
  LLVMTypeRef t = LLVMTypeOf(x), type = LLVMFunctionType(t, &t, 1, 0);
  const char *suffix = LLVMGetTypeKind(t) == LLVMFloatTypeKind ? "f" : LLVMGetTypeKind(t) == LLVMDoubleTypeKind ? "" : "l";
  for (unsigned k = 0; k < 2; k++) {
    char name[8];
    snprintf(name, sizeof name, "%s%s", k ? "cos" : "sin", suffix);
    LLVMValueRef v = LLVMBuildCall2(b, type, declared(m, name, type), &x, 1, "");
    LLVMBuildStore(b, v, LLVMGetArgOperand(call, 1 + k));
  }
}

/* realloc(p, n * size), asked for SIZE_MAX bytes where the product does not fit (n != 0 && size > max / n,
 * the divisor kept from 0): realloc fails then, as reallocarray does (NULL, ENOMEM, p untouched). */
static void expand_reallocarray(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call) {
  LLVMValueRef p = LLVMGetArgOperand(call, 0), n = LLVMGetArgOperand(call, 1), size = LLVMGetArgOperand(call, 2);
  LLVMTypeRef t = LLVMTypeOf(n), ptr = LLVMTypeOf(p);
  LLVMValueRef nonzero = LLVMBuildICmp(b, LLVMIntNE, n, LLVMConstNull(t), "");
  LLVMValueRef most = LLVMBuildUDiv(b, LLVMConstAllOnes(t), LLVMBuildSelect(b, nonzero, n, LLVMConstInt(t, 1, 0), ""), "");
  LLVMValueRef over = LLVMBuildAnd(b, nonzero, LLVMBuildICmp(b, LLVMIntUGT, size, most, ""), "");
  LLVMTypeRef params[2] = {ptr, t}, realloc_type = LLVMFunctionType(ptr, params, 2, 0);
  LLVMValueRef args[2] = {p, LLVMBuildSelect(b, over, LLVMConstAllOnes(t), LLVMBuildMul(b, n, size, ""), "")};
  LLVMValueRef grown = LLVMBuildCall2(b, realloc_type, declared(m, "realloc", realloc_type), args, 2, "");
  LLVMReplaceAllUsesWith(call, grown);
}

/* The search glibc's headers write inline at -O1 and up (bits/stdlib-bsearch.h): halve [l, u) until the
 * comparator says 0 at the middle element (its address the result) or nothing is left (NULL). */
static void expand_bsearch(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef key = LLVMGetArgOperand(call, 0), base = LLVMGetArgOperand(call, 1), n = LLVMGetArgOperand(call, 2),
               size = LLVMGetArgOperand(call, 3), compare = LLVMGetArgOperand(call, 4);
  LLVMTypeRef t = LLVMTypeOf(n), ptr = LLVMTypeOf(base), i8 = LLVMInt8TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
  LLVMTypeRef params[2] = {ptr, ptr}, compare_type = LLVMFunctionType(i32, params, 2, 0);
  LLVMBasicBlockRef head = cfg_split_before(c, call), join = LLVMGetInstructionParent(call);
  LLVMBasicBlockRef loop = LLVMInsertBasicBlockInContext(c, join, ""), probe = LLVMInsertBasicBlockInContext(c, join, ""),
                    next = LLVMInsertBasicBlockInContext(c, join, "");
  LLVMPositionBuilderAtEnd(b, head);
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef l = LLVMBuildPhi(b, t, ""), u = LLVMBuildPhi(b, t, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, l, u, ""), probe, join);
  LLVMPositionBuilderAtEnd(b, probe);
  LLVMValueRef mid = LLVMBuildAdd(b, l, LLVMBuildLShr(b, LLVMBuildSub(b, u, l, ""), LLVMConstInt(t, 1, 0), ""), "");
  LLVMValueRef offset = LLVMBuildMul(b, mid, size, "");
  LLVMValueRef at = LLVMBuildGEP2(b, i8, base, &offset, 1, "");
  LLVMValueRef args[2] = {key, at};
  LLVMValueRef order = LLVMBuildCall2(b, compare_type, compare, args, 2, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, order, LLVMConstNull(i32), ""), join, next);
  LLVMPositionBuilderAtEnd(b, next);
  LLVMValueRef below = LLVMBuildICmp(b, LLVMIntSLT, order, LLVMConstNull(i32), "");
  LLVMValueRef l2 = LLVMBuildSelect(b, below, l, LLVMBuildAdd(b, mid, LLVMConstInt(t, 1, 0), ""), "");
  LLVMValueRef u2 = LLVMBuildSelect(b, below, mid, u, "");
  LLVMBuildBr(b, loop);
  LLVMValueRef l_in[2] = {LLVMConstNull(t), l2}, u_in[2] = {n, u2};
  LLVMBasicBlockRef from[2] = {head, next};
  LLVMAddIncoming(l, l_in, from, 2);
  LLVMAddIncoming(u, u_in, from, 2);
  LLVMPositionBuilderBeforeInstrAndDbgRecords(b, call); /* a phi leads its block, before any variable's record */
  LLVMValueRef found = LLVMBuildPhi(b, ptr, "");
  LLVMValueRef found_in[2] = {LLVMConstNull(ptr), at};
  LLVMBasicBlockRef found_from[2] = {loop, probe};
  LLVMAddIncoming(found, found_in, found_from, 2);
  LLVMReplaceAllUsesWith(call, found);
}

unsigned library_expansions_apply(LLVMModuleRef m, const ValueMap *reached) {
  ValueList calls = {0};
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = vmap_has(reached, fn) ? LLVMGetFirstBasicBlock(fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (expansion_of(i) != NOT_EXPANDED) vec_push(&calls, i);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (size_t k = 0; k < calls.len; k++) {
    LLVMValueRef call = calls.data[k];
    Expansion e = expansion_of(call);
    /* everything the builder makes has the call's line (positioned at a block's end, it would keep the
       last one it had, maybe another function's: the verifier refuses that) */
    LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call));
    if (e == SINCOS) LLVMPositionBuilderBefore(b, call), expand_sincos(m, b, call);
    else if (e == REALLOCARRAY) LLVMPositionBuilderBefore(b, call), expand_reallocarray(m, b, call);
    else if (e == BSEARCH) expand_bsearch(m, b, call);
    else expand_checked(m, b, call, e);
    LLVMInstructionEraseFromParent(call);
  }
  LLVMDisposeBuilder(b);
  unsigned n = (unsigned)calls.len;
  vec_free(&calls);
  return n;
}
