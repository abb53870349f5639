/* Whether the reverse sweep of a critical section needs the order the threads entered it in.
 *
 * Reverse mode reverses the critical sections of a parallel region one at a time, in the opposite order
 * of entry (tickets, runtime/omp.c). Tasks cannot wait for each other that way (a task waiting for its
 * turn may hold the thread the other needs), so there the order must not matter: it does not where the
 * section only adds into shared memory (s = s + v, whose adjoint reads the adjoint of s and leaves it),
 * and it does where the section overwrites (a maximum kept by compare and assign: the adjoint of the
 * last assignment takes the adjoint of s and zeroes it, so the sections' adjoints must come in the
 * opposite order of the assignments). */
#include "omp/omp.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/calls.h"
#include "ir/ir.h"
#include "ir/valuemap.h"

/* The same address computed twice (at -O0 the variable's address is loaded from its slot for the load
 * and again for the store; the section stores no pointers). */
static bool same_address(LLVMValueRef a, LLVMValueRef b, int depth) {
  if (a == b) return true;
  if (depth > 4 || !LLVMIsAInstruction(a) || !LLVMIsAInstruction(b) ||
      LLVMGetInstructionOpcode(a) != LLVMGetInstructionOpcode(b) || LLVMGetNumOperands(a) != LLVMGetNumOperands(b))
    return false;
  if (LLVMIsALoadInst(a)) return same_address(LLVMGetOperand(a, 0), LLVMGetOperand(b, 0), depth + 1);
  if (!LLVMIsAGetElementPtrInst(a) || LLVMGetGEPSourceElementType(a) != LLVMGetGEPSourceElementType(b)) return false;
  for (int k = 0, n = LLVMGetNumOperands(a); k < n; k++)
    if (!same_address(LLVMGetOperand(a, (unsigned)k), LLVMGetOperand(b, (unsigned)k), depth + 1)) return false;
  return true;
}

/* store (load p) + v to p, or v + (load p), (load p) - v, fmuladd(a, b, load p); the load in the section */
static bool is_increment(LLVMValueRef store, const ValueMap *inside) {
  LLVMValueRef v = LLVMGetOperand(store, 0), p = LLVMGetOperand(store, 1);
  if (!LLVMIsAInstruction(v)) return false;
  unsigned from = 0, to = 0; /* the operands that may be the load */
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op == LLVMFAdd) to = 2;
  else if (op == LLVMFSub) to = 1;
  else if (op == LLVMCall && (!strncmp(ir_called_name(v), "llvm.fmuladd.", 13) || !strncmp(ir_called_name(v), "llvm.fma.", 9)))
    from = 2, to = 3;
  for (unsigned k = from; k < to; k++) {
    LLVMValueRef l = LLVMGetOperand(v, k);
    if (LLVMIsALoadInst(l) && same_address(LLVMGetOperand(l, 0), p, 0) &&
        vmap_has(inside, LLVMBasicBlockAsValue(LLVMGetInstructionParent(l))))
      return true;
  }
  return false;
}

/* A call that writes none of the program's data: printf, or a checkpointed step's notes (the steps' noting
 * copies of a task's function and of the helpers it calls note addresses inside its sections too, and
 * ask for the thread number: before, such a section was taken for one that overwrites). */
static bool writes_no_data(LLVMValueRef call) {
  if (call_classify(call, NULL) != CALL_INACTIVE) return false;
  for (unsigned k = 0, n = ir_num_call_args(call); k < n; k++)
    if (call_writes_argument(call, k)) return false;
  return true;
}

/* Whether a function the section calls may write memory other than its own stack (a helper computing a
 * value does not); a library function without pointer arguments (sin) does not. `open`: the functions
 * being looked at, around this one: a recursive call writes what its function's body writes, which is
 * being looked at already (before, recursion counted as writing, and a task's section that called a
 * recursive helper stopped the program as one that overwrites). */
static bool writes_memory_in(LLVMValueRef fn, int depth, ValueList *open) {
  for (size_t k = 0; k < open->len; k++)
    if (open->data[k] == fn) return false;
  if (LLVMIsDeclaration(fn)) {
    LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
    unsigned n = LLVMCountParamTypes(fty);
    LLVMTypeRef params[16];
    if (n > 16 || LLVMIsFunctionVarArg(fty)) return true;
    LLVMGetParamTypes(fty, params);
    for (unsigned i = 0; i < n; i++)
      if (ir_is_ptr(params[i])) return true;
    return false;
  }
  if (depth > 4) return true;
  vec_push(open, fn);
  bool writes = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !writes; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !writes; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAStoreInst(i)) {
        writes = !LLVMIsAAllocaInst(ir_address_base(LLVMGetOperand(i, 1)));
      } else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAMemIntrinsic(i)) {
        writes = true;
      } else if (ir_is_call_site(i) && !LLVMIsAIntrinsicInst(i) && !writes_no_data(i)) {
        LLVMValueRef callee = ir_called_function(i);
        bool omp = omp_is_runtime_call(i); /* thread numbers and work-sharing bookkeeping write no data */
        writes = !callee || (omp ? omp_classify(i) != OMP_SCHEDULE : writes_memory_in(callee, depth + 1, open));
      }
    }
  open->len--;
  return writes;
}

static bool writes_memory(LLVMValueRef fn) {
  ValueList open = {0};
  bool writes = writes_memory_in(fn, 0, &open);
  vec_free(&open);
  return writes;
}

/* The call that ends the section: one on the same lock (at -O0 an omp_lock_t's address is loaded from its
 * slot once for omp_set_lock and again for omp_unset_lock). */
static bool ends_section(LLVMValueRef i, LLVMValueRef lock) {
  return ir_is_call(i) && omp_is_runtime_call(i) && omp_classify(i) == OMP_END_CRITICAL && same_address(omp_lock(i), lock, 0);
}

bool omp_critical_order_matters(LLVMValueRef enter) {
  LLVMValueRef lock = omp_lock(enter);
  ValueMap inside;
  vmap_init(&inside);
  ValueList work = {0}, stores = {0};
  bool matters = false;
  /* the blocks from the entry to the section's end; the stores in them */
  vmap_put(&inside, LLVMBasicBlockAsValue(LLVMGetInstructionParent(enter)), enter);
  vec_push(&work, LLVMGetNextInstruction(enter));
  while (work.len && !matters) {
    LLVMValueRef i = work.data[--work.len];
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(i);
    if (i == LLVMGetFirstInstruction(bb)) {
      if (vmap_has(&inside, LLVMBasicBlockAsValue(bb))) continue;
      vmap_put(&inside, LLVMBasicBlockAsValue(bb), i);
    }
    bool ended = false;
    for (; i && !ended; i = LLVMGetNextInstruction(i)) {
      if (ends_section(i, lock)) ended = true;
      else if (LLVMIsAStoreInst(i)) {
        vec_push(&stores, i);
        matters |= ir_is_ptr(LLVMTypeOf(LLVMGetOperand(i, 0))); /* same_address follows loaded addresses */
      } else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAMemIntrinsic(i)) matters = true;
      else if (ir_is_call_site(i) && !LLVMIsAIntrinsicInst(i) && !omp_is_runtime_call(i) && !writes_no_data(i)) {
        LLVMValueRef callee = ir_called_function(i);
        matters |= !callee || writes_memory(callee);
      }
    }
    if (ended) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (!term || LLVMIsAReturnInst(term)) matters = true; /* a section left open: not one of clang's */
    for (unsigned s = 0, n = term ? LLVMGetNumSuccessors(term) : 0; s < n; s++)
      vec_push(&work, LLVMGetFirstInstruction(LLVMGetSuccessor(term, s)));
  }
  for (size_t k = 0; k < stores.len && !matters; k++) {
    LLVMValueRef st = stores.data[k]; /* a store into a stack slot of the function's own is no shared data */
    matters = !LLVMIsAAllocaInst(LLVMGetOperand(st, 1)) && !is_increment(st, &inside);
  }
  vec_free(&work);
  vec_free(&stores);
  vmap_free(&inside);
  return matters;
}
