/* Copies into and out of shared memory, as loops. The optimiser turns a region's loop that copies a
 * thread's private array into a shared one (`for (p...) a[p] = sum[p]`, PolyBench's doitgen) into one
 * memcpy. The reverse sweep's plan for shared memory (reverse/rev_shared.c) notes what each thread reads
 * and writes access by access; a call that moves bytes of shared memory is outside it, and the whole
 * region's adjoints then went atomic (doitgen at 2 threads: every update, a gradient 26-30 times the
 * primal). Before differentiating, such a memcpy in a region's outlined function becomes the loop it
 * was, of the floats memtype tells it moves: their loads and stores are then planned as the program's
 * own. The final optimiser makes it one memcpy again where nothing else remains in the loop. */
#include "omp/omp.h"

#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calls.h"
#include "analysis/memtype.h"
#include "ir/cfg.h"
#include "ir/ir.h"
#include "reverse/rev_internal.h"

/* The alignment the memcpy promises for argument i (1 where it promises none), at most `size`. */
static unsigned promised_align(LLVMValueRef call, unsigned i, unsigned size) {
  LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(call, i + 1, ir_attr_kind("align"));
  unsigned long long align = a ? LLVMGetEnumAttributeValue(a) : 1;
  return align < size ? (unsigned)align : size;
}

/* Whether n is a multiple of size by its form: a constant, a product or shift by one, extended. */
static bool multiple_of(LLVMValueRef n, unsigned size) {
  if (LLVMIsAConstantInt(n)) return LLVMConstIntGetZExtValue(n) % size == 0;
  if (!LLVMIsAInstruction(n)) return false;
  LLVMValueRef k = LLVMGetNumOperands(n) > 1 ? LLVMGetOperand(n, 1) : NULL;
  switch (LLVMGetInstructionOpcode(n)) {
  case LLVMZExt:
  case LLVMSExt: return multiple_of(LLVMGetOperand(n, 0), size);
  case LLVMMul: return multiple_of(LLVMGetOperand(n, 0), size) || multiple_of(k, size);
  case LLVMShl: return LLVMIsAConstantInt(k) && LLVMConstIntGetZExtValue(k) < 32 && (1u << LLVMConstIntGetZExtValue(k)) % size == 0;
  default: return false;
  }
}

/* A memcpy of a whole number of floats (not volatile) touching memory another thread may see. */
static bool shared_float_copy(LLVMValueRef call, LLVMTypeRef *elem) {
  if (call_classify(call, NULL) != CALL_MEMCPY || strncmp(ir_called_name(call), "llvm.memcpy.", 12)) return false;
  LLVMValueRef is_volatile = LLVMGetArgOperand(call, 3);
  if (!LLVMIsAConstantInt(is_volatile) || LLVMConstIntGetZExtValue(is_volatile)) return false;
  if (rev_thread_private(LLVMGetArgOperand(call, 0)) && rev_thread_private(LLVMGetArgOperand(call, 1))) return false;
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
  switch (memtype_of_copy(call)) {
  case DATA_F64: *elem = LLVMDoubleTypeInContext(c); break;
  case DATA_F32: *elem = LLVMFloatTypeInContext(c); break;
  default: return false;
  }
  /* aligned as the floats: an atomic add on a shadow less aligned would need libatomic */
  unsigned size = LLVMGetTypeKind(*elem) == LLVMDoubleTypeKind ? 8 : 4;
  return multiple_of(LLVMGetArgOperand(call, 2), size) && promised_align(call, 0, size) == size &&
         promised_align(call, 1, size) == size;
}

/* memcpy(dst, src, n) as for (i = 0; i < n / size; i++) dst[i] = src[i]. */
static void as_loop(LLVMValueRef call, LLVMTypeRef elem) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  unsigned size = LLVMGetTypeKind(elem) == LLVMDoubleTypeKind ? 8 : 4;
  LLVMValueRef dst = LLVMGetArgOperand(call, 0), src = LLVMGetArgOperand(call, 1);
  LLVMBasicBlockRef head = cfg_split_before(c, call), rest = LLVMGetInstructionParent(call);
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c, fn, "copy.float");
  LLVMMoveBasicBlockAfter(body, head);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call)); /* a diagnostic names the copy's line */
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef bytes = LLVMBuildZExtOrBitCast(b, LLVMGetArgOperand(call, 2), i64, "");
  LLVMValueRef n = LLVMBuildUDiv(b, bytes, LLVMConstInt(i64, size, 0), "floats");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, n, LLVMConstInt(i64, 0, 0), ""), rest, body);
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef i = LLVMBuildPhi(b, i64, "i");
  LLVMValueRef from = LLVMBuildGEP2(b, elem, src, &i, 1, ""), to = LLVMBuildGEP2(b, elem, dst, &i, 1, "");
  LLVMValueRef v = LLVMBuildLoad2(b, elem, from, "");
  LLVMSetAlignment(v, size);
  LLVMSetAlignment(LLVMBuildStore(b, v, to), size);
  LLVMValueRef next = LLVMBuildNUWAdd(b, i, LLVMConstInt(i64, 1, 0), "");
  LLVMSetNSW(next, 1);
  LLVMValueRef vals[2] = {LLVMConstInt(i64, 0, 0), next};
  LLVMBasicBlockRef from_blocks[2] = {head, body};
  LLVMAddIncoming(i, vals, from_blocks, 2);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, next, n, ""), rest, body);
  LLVMInstructionEraseFromParent(call);
  LLVMDisposeBuilder(b);
}

static void in_function(LLVMValueRef fn) {
  ValueList copies = {0};
  VEC(LLVMTypeRef) elems = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef elem;
      if (ir_is_call(i) && shared_float_copy(i, &elem)) {
        vec_push(&copies, i);
        vec_push(&elems, elem);
      }
    }
  for (size_t k = 0; k < copies.len; k++) as_loop(copies.data[k], elems.data[k]);
  vec_free(&copies);
  vec_free(&elems);
}

void omp_shared_copies_as_loops(LLVMModuleRef m) {
  ValueList bodies = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        LLVMValueRef body = ir_is_call(i) && omp_is_runtime_call(i) && omp_classify(i) == OMP_FORK ? omp_fork_outlined(i) : NULL;
        bool seen = false;
        for (size_t k = 0; k < bodies.len; k++) seen |= bodies.data[k] == body;
        /* not the program's own functions at -O0, left as compiled for the debugger */
        if (body && !LLVMIsDeclaration(body) && !ir_fn_has_attr(body, "optnone") && !seen) vec_push(&bodies, body);
      }
  for (size_t k = 0; k < bodies.len; k++) in_function(bodies.data[k]);
  vec_free(&bodies);
}
