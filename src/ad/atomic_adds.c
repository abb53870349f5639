/* Compare-and-swap loops that add, as atomic adds (see atomic_adds.h). */
#include "ad/atomic_adds.h"

#include <string.h>

#include <llvm-c/DebugInfo.h>

/* v without bitcasts */
static LLVMValueRef uncast(LLVMValueRef v) {
  while (LLVMIsABitCastInst(v)) v = LLVMGetOperand(v, 0);
  return v;
}

static bool in_block(LLVMValueRef v, LLVMBasicBlockRef bb) { return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == bb; }

/* The loop block bb: phi old [start from the preheader, found], sum = old +/- v, (bitcasts), cmpxchg(p,
 * old, sum), found = its old value, and a branch on its success back to bb or out. Fills the parts. */
typedef struct {
  LLVMValueRef phi, sum, xchg, start, addend;
  LLVMValueRef factors[2]; /* the sum is fmuladd(a, b, old): the addend is a b (fmuladd may round twice) */
  bool sub;
  LLVMBasicBlockRef pre, exit;
} CasLoop;

/* sum = old + v, v + old, old - v or fmuladd(a, b, old), with v, a, b from outside the loop: the addend
 * (NULL for fmuladd, whose factors are noted). */
static bool adds_to(LLVMValueRef sum, LLVMBasicBlockRef bb, CasLoop *c) {
  c->addend = c->factors[0] = c->factors[1] = NULL;
  if (!in_block(sum, bb)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(sum);
  c->sub = op == LLVMFSub;
  if (op == LLVMFAdd || op == LLVMFSub) {
    for (unsigned k = 0; k < (c->sub ? 1u : 2u); k++)
      if (LLVMGetOperand(sum, k) == c->phi) c->addend = LLVMGetOperand(sum, 1 - k);
    return c->addend && !in_block(c->addend, bb);
  }
  if (!ir_is_call(sum) || strncmp(ir_called_name(sum), "llvm.fmuladd.", 13) || LLVMGetArgOperand(sum, 2) != c->phi) return false;
  c->factors[0] = LLVMGetArgOperand(sum, 0), c->factors[1] = LLVMGetArgOperand(sum, 1);
  return !in_block(c->factors[0], bb) && !in_block(c->factors[1], bb);
}

static bool match(LLVMBasicBlockRef bb, CasLoop *c) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br)) return false;
  LLVMValueRef ok = LLVMGetCondition(br);
  if (!LLVMIsAExtractValueInst(ok) || !LLVMIsAAtomicCmpXchgInst(LLVMGetOperand(ok, 0))) return false;
  c->xchg = LLVMGetOperand(ok, 0);
  if (!in_block(c->xchg, bb) || LLVMGetSuccessor(br, 1) != bb || LLVMGetSuccessor(br, 0) == bb) return false;
  c->exit = LLVMGetSuccessor(br, 0);
  c->phi = uncast(LLVMGetOperand(c->xchg, 1));
  c->sum = uncast(LLVMGetOperand(c->xchg, 2));
  if (!LLVMIsAPHINode(c->phi) || !in_block(c->phi, bb) || LLVMCountIncoming(c->phi) != 2 || !ir_is_fp(LLVMTypeOf(c->phi)))
    return false;
  if (!adds_to(c->sum, bb, c)) return false;
  c->start = NULL, c->pre = NULL;
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef in = LLVMGetIncomingValue(c->phi, k);
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(c->phi, k);
    if (from == bb) { /* the value the failed swap found */
      LLVMValueRef found = uncast(in);
      if (!LLVMIsAExtractValueInst(found) || LLVMGetOperand(found, 0) != c->xchg) return false;
    } else {
      c->start = in, c->pre = from;
    }
  }
  /* the start is the pointer's atomic load, and the loop does nothing else */
  if (!c->start || !LLVMIsALoadInst(c->start) || LLVMGetOrdering(c->start) == LLVMAtomicOrderingNotAtomic ||
      LLVMGetOperand(c->start, 0) != LLVMGetOperand(c->xchg, 0))
    return false;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    if (i == c->phi || i == c->sum || i == c->xchg || i == br || LLVMIsABitCastInst(i) || LLVMIsAExtractValueInst(i) ||
        ir_is_debug_intrinsic(i))
      continue;
    return false;
  }
  /* outside the loop only the sum is used (the expression's value) */
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    for (LLVMUseRef u = LLVMGetFirstUse(i); u && i != c->sum; u = LLVMGetNextUse(u))
      if (!in_block(LLVMGetUser(u), bb)) return false;
  /* the exit's phis: only the loop's own closing ones (one entry, the sum), which the new sum replaces */
  for (LLVMValueRef i = LLVMGetFirstInstruction(c->exit); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i))
    if (LLVMCountIncoming(i) != 1 || LLVMGetIncomingValue(i, 0) != c->sum) return false;
  return true;
}

static void rewrite(LLVMBuilderRef b, CasLoop *c, LLVMBasicBlockRef bb) {
  LLVMValueRef pre_br = LLVMGetBasicBlockTerminator(c->pre);
  LLVMPositionBuilderBefore(b, pre_br);
  bool sub = c->sub;
  if (!c->addend) {
    c->addend = LLVMBuildFMul(b, c->factors[0], c->factors[1], "");
    LLVMSetFastMathFlags(c->addend, LLVMGetFastMathFlags(c->sum));
  }
  LLVMValueRef old = LLVMBuildAtomicRMW(b, sub ? LLVMAtomicRMWBinOpFSub : LLVMAtomicRMWBinOpFAdd, LLVMGetOperand(c->xchg, 0),
                                        c->addend, LLVMGetCmpXchgSuccessOrdering(c->xchg), 0);
  LLVMSetAlignment(old, LLVMGetAlignment(c->start));
  LLVMInstructionSetDebugLoc(old, LLVMInstructionGetDebugLoc(c->sum));
  LLVMValueRef sum = sub ? LLVMBuildFSub(b, old, c->addend, "") : LLVMBuildFAdd(b, old, c->addend, "");
  LLVMSetFastMathFlags(sum, LLVMGetFastMathFlags(c->sum));
  LLVMInstructionSetDebugLoc(sum, LLVMInstructionGetDebugLoc(c->sum));
  /* the loop's closing phis, and the sum's uses outside the loop, take the new one; the loop goes */
  for (LLVMValueRef i = LLVMGetFirstInstruction(c->exit), next; i && LLVMIsAPHINode(i); i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMReplaceAllUsesWith(i, sum);
    LLVMInstructionEraseFromParent(i);
  }
  LLVMReplaceAllUsesWith(c->sum, sum); /* the loop's own uses go with it */
  for (unsigned k = 0, n = LLVMGetNumSuccessors(pre_br); k < n; k++)
    if (LLVMGetSuccessor(pre_br, k) == bb) LLVMSetSuccessor(pre_br, k, c->exit);
  LLVMValueRef start = c->start;
  LLVMDeleteBasicBlock(bb);
  if (!LLVMGetFirstUse(start)) LLVMInstructionEraseFromParent(start);
}

unsigned atomic_adds_apply(LLVMModuleRef m, const ValueMap *reached) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  unsigned n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = vmap_has(reached, fn) ? LLVMGetFirstBasicBlock(fn) : NULL, next; bb; bb = next) {
      next = LLVMGetNextBasicBlock(bb);
      CasLoop c;
      if (!match(bb, &c)) continue;
      rewrite(b, &c, bb);
      n++;
    }
  LLVMDisposeBuilder(b);
  return n;
}
