/* Untied tasks run tied. clang cuts an untied task's entry into parts at its task scheduling points: at
 * each, the entry stores the next part's number in the task (kmp_task_t's part_id), hands the task back
 * to libomp (__kmpc_omp_task on itself) and returns; libomp calls the entry again later, perhaps on
 * another thread, and the entry's switch on the number jumps to that part. A reverse sweep needs a task's
 * tape filled by one call of its entry, on one thread.
 *
 * OpenMP lets an implementation run any untied task as tied: untied only permits moving the task between
 * threads at its scheduling points, it never requires it. So before differentiating, each hand-back
 * becomes a jump to the switch (the entry runs its parts one after another, in one call) and the
 * allocation's flags say tied. The program computes the same; its task scheduling points stay scheduling
 * points (a child task's spawn, a taskwait), only the entry no longer leaves at them. */
#include "omp/omp.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/unwritten.h"
#include "ir/cfg.h"
#include "ir/ir.h"

enum { PART_ID_OFFSET = 16 }; /* kmp_task_t: shareds, routine, part_id */

/* v with clang's -O0 spills looked through: a load of a slot stored once is the value stored. */
static LLVMValueRef unspilled(LLVMValueRef v) {
  for (int depth = 0; depth < 8 && v && LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0)); depth++) {
    LLVMValueRef stored = unwritten_slot_value(LLVMGetOperand(v, 0));
    if (!stored) break;
    v = stored;
  }
  return v;
}

/* Where the body of an untied task lies: in the entry itself, or (clang's front end) in a function the
 * entry calls with the task and the address of its part number. Values of that function. */
typedef struct {
  LLVMValueRef fn, task, part; /* part: NULL where it is the task's field */
} Body;

/* Whether p addresses the task's part number. */
static bool is_part_id(LLVMModuleRef m, const Body *body, LLVMValueRef p) {
  long long off = 0;
  p = unspilled(p);
  if (body->part && p == body->part) return true;
  LLVMValueRef base = ir_strip_constant_offsets(m, p, &off);
  return unspilled(base) == body->task && off == PART_ID_OFFSET;
}

/* The switch on the part number, NULL when the body has none. */
static LLVMValueRef part_switch(LLVMModuleRef m, const Body *body) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || !LLVMIsASwitchInst(t)) continue;
    LLVMValueRef cond = LLVMGetOperand(t, 0);
    if (LLVMIsALoadInst(cond) && LLVMGetInstructionParent(cond) == bb && is_part_id(m, body, LLVMGetOperand(cond, 0)))
      return t;
  }
  return NULL;
}

/* The body's hand-backs of its own task, each followed by a plain branch (to the return); false when one
 * is not of that shape. */
static bool hand_backs(const Body *body, ValueList *out) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(body->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i) || strcmp(ir_called_name(i), "__kmpc_omp_task") || unspilled(LLVMGetArgOperand(i, 2)) != body->task)
        continue;
      LLVMValueRef next = LLVMGetNextInstruction(i);
      if (LLVMGetFirstUse(i) || !next || !LLVMIsABranchInst(next) || LLVMIsConditional(next) ||
          LLVMIsAPHINode(LLVMGetFirstInstruction(LLVMGetSuccessor(next, 0))))
        return false;
      vec_push(out, i);
    }
  return true;
}

/* Makes the body run its parts in one call; false (nothing changed) where its shape is not clang's. */
static bool join_parts(LLVMModuleRef m, const Body *body) {
  LLVMValueRef sw = part_switch(m, body);
  ValueList backs = {0};
  bool ok = sw && hand_backs(body, &backs);
  if (ok && backs.len) {
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMValueRef cond = LLVMGetOperand(sw, 0);
    LLVMBasicBlockRef head = cfg_split_before(c, cond), dispatch = LLVMGetInstructionParent(cond);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMBuildBr(b, dispatch);
    LLVMDisposeBuilder(b);
    for (size_t k = 0; k < backs.len; k++) {
      LLVMValueRef br = LLVMGetNextInstruction(backs.data[k]);
      LLVMSetSuccessor(br, 0, dispatch);
      LLVMInstructionEraseFromParent(backs.data[k]);
    }
  }
  vec_free(&backs);
  return ok;
}

/* The body of the task entry runs: the entry's own, or that of a function it alone calls with the task. */
static bool find_body(LLVMModuleRef m, LLVMValueRef entry, Body *body) {
  if (LLVMCountParams(entry) != 2) return false;
  *body = (Body){entry, LLVMGetParam(entry, 1), NULL};
  if (part_switch(m, body)) return true;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(entry); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef fn = ir_is_call(i) ? ir_called_function(i) : NULL;
      if (!fn || LLVMIsDeclaration(fn) || LLVMGetNextUse(LLVMGetFirstUse(fn))) continue; /* called here only */
      Body inner = {fn, NULL, NULL};
      for (unsigned a = 0; a < ir_num_call_args(i) && a < LLVMCountParams(fn); a++) {
        LLVMValueRef arg = LLVMGetArgOperand(i, a);
        if (unspilled(arg) == body->task) inner.task = LLVMGetParam(fn, a);
        else if (is_part_id(m, body, arg)) inner.part = LLVMGetParam(fn, a);
      }
      if (inner.task && inner.part && part_switch(m, &inner)) {
        *body = inner;
        return true;
      }
    }
  return false;
}

void omp_run_tied(LLVMModuleRef m, LLVMValueRef alloc, ValueMap *joined) {
  LLVMValueRef entry = omp_task_entry(alloc), flags = LLVMGetArgOperand(alloc, OMP_TASK_FLAGS_ARG);
  if (!entry || (omp_task_flags(flags, true) & OMP_TASK_TIED)) return;
  if (!vmap_has(joined, entry)) {
    Body body;
    if (!find_body(m, entry, &body) || !join_parts(m, &body)) return; /* left untied: reverse mode refuses it */
    vmap_put(joined, entry, entry);
  }
  LLVMValueRef tied = LLVMConstInt(LLVMTypeOf(flags), OMP_TASK_TIED, 0);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMPositionBuilderBefore(b, alloc);
  LLVMSetOperand(alloc, OMP_TASK_FLAGS_ARG, LLVMBuildOr(b, flags, tied, "")); /* folded for a constant */
  LLVMDisposeBuilder(b);
}
