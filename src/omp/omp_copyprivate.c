/* `#pragma omp single copyprivate(v, ...)`: the thread that ran the single's block hands the values of
 * its private variables to the team. clang lowers it to
 *     list = [&v, ...]            (an array of the variables' addresses, on the stack)
 *     __kmpc_copyprivate(loc, gtid, sizeof list, list, copy, didit)
 * libomp publishes the list of the thread whose didit is set, and every other thread calls
 * copy(own list, published list), between two barriers. The derivatives use the same call: with a list
 * of the variables' shadows (tangents, the shadows of pointers) and clang's copy, and in the reverse
 * sweep with a function of Parad's that adds each other thread's adjoints into the publishing thread's
 * and resets them, atomically (the others add at once). */
#include "omp/omp.h"

#include <stdio.h>
#include <string.h>

#include "ir/ir.h"

bool omp_copyprivate_list(LLVMValueRef call, ValueList *elems) {
  LLVMValueRef list = ir_strip_pointer_casts(LLVMGetArgOperand(call, OMP_COPYPRIVATE_LIST_ARG));
  LLVMValueRef size = LLVMGetArgOperand(call, 2);
  if (!LLVMIsAAllocaInst(list) || !LLVMIsAConstantInt(size) || LLVMConstIntGetZExtValue(size) % 8 ||
      LLVMConstIntGetZExtValue(size) / 8 > 64)
    return false;
  unsigned n = (unsigned)(LLVMConstIntGetZExtValue(size) / 8);
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  LLVMValueRef found[64] = {0};
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && i != call; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsAStoreInst(i)) continue;
    long long at = 0;
    if (ir_strip_constant_offsets(m, LLVMGetOperand(i, 1), &at) != list) continue;
    if (at < 0 || at % 8 || at / 8 >= n || !ir_is_ptr(LLVMTypeOf(LLVMGetOperand(i, 0)))) return false;
    found[at / 8] = LLVMGetOperand(i, 0);
  }
  for (unsigned k = 0; k < n; k++) {
    if (!found[k]) return false;
    vec_push(elems, found[k]);
  }
  return true;
}

/* A type made of floats only (scalars, vectors, arrays of them): its adjoint is itself. */
static bool floats_only(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind: return true;
  case LLVMVectorTypeKind:
  case LLVMArrayTypeKind: return floats_only(LLVMGetElementType(t));
  default: return false;
  }
}

bool omp_copyprivate_reversible(const ValueList *elems, const bool *shadowed, const char **why) {
  for (size_t k = 0; k < elems->len; k++) {
    if (!shadowed[k]) continue;
    LLVMValueRef v = ir_strip_pointer_casts(elems->data[k]);
    LLVMTypeRef t = LLVMIsAAllocaInst(v) ? LLVMGetAllocatedType(v) : NULL;
    if (!t || (!floats_only(t) && ir_contains_fp(t))) {
      *why = "reverse mode differentiates copyprivate of variables of floats (and of pointers), not of structs mixing "
             "them with other data";
      return false;
    }
  }
  return true;
}

LLVMValueRef omp_copyprivate_adjoint(LLVMModuleRef m, const ValueList *elems, const bool *shadowed) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef params[2] = {ptr, ptr};
  LLVMValueRef fn = LLVMAddFunction(m, "parad.copyprivate.adjoint", LLVMFunctionType(LLVMVoidTypeInContext(c), params, 2, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, fn, ""));
  for (size_t k = 0; k < elems->len; k++) {
    LLVMValueRef v = ir_strip_pointer_casts(elems->data[k]);
    if (!shadowed[k] || !LLVMIsAAllocaInst(v) || !floats_only(LLVMGetAllocatedType(v))) continue; /* pointers: nothing */
    LLVMTypeRef t = LLVMGetAllocatedType(v);
    LLVMValueRef at = LLVMConstInt(i64, 8 * k, 0);
    LLVMValueRef mine = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), LLVMGetParam(fn, 0), &at, 1, ""), "");
    LLVMValueRef theirs = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), LLVMGetParam(fn, 1), &at, 1, ""), "");
    ir_atomic_fadd(b, theirs, LLVMBuildLoad2(b, t, mine, ""), 0);
    LLVMBuildStore(b, LLVMConstNull(t), mine);
  }
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return fn;
}
