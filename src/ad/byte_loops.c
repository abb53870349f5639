/* Byte-by-byte copy and swap loops made block moves (see the header). */
#include "ad/byte_loops.h"

#include <llvm-c/DebugInfo.h>
#include <stdlib.h>

#include "ad/library.h"
#include "ir/cfg.h"

/* A value of the loop's block that steps by a constant each iteration: a pointer by one byte, or an integer. */
typedef struct {
  LLVMValueRef phi, start, next; /* start: its value from the preheader; next: the next iteration's */
  long long step;
} Counter;

enum { MAX_COUNTERS = 4 };

typedef struct {
  LLVMBasicBlockRef body, preheader, exit;
  Counter counters[MAX_COUNTERS];
  unsigned ncounters, nloads, nstores;
  LLVMValueRef loads[2], stores[2]; /* in the block's order */
  Counter *tested;                  /* the counter whose next value the exit test compares */
  LLVMValueRef limit;               /* with this value, defined outside the loop */
} ByteLoop;

static bool defined_in(LLVMValueRef v, LLVMBasicBlockRef bb) {
  return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == bb;
}

static bool is_i8(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 8; }

static Counter *counter_of(ByteLoop *l, LLVMValueRef v) {
  for (unsigned i = 0; i < l->ncounters; i++)
    if (l->counters[i].phi == v) return &l->counters[i];
  return NULL;
}

/* gep i8, p, c with one constant index: c, else 0 (no such step). */
static long long byte_step(LLVMValueRef gep, LLVMValueRef p) {
  if (!LLVMIsAGetElementPtrInst(gep) || LLVMGetNumOperands(gep) != 2 || LLVMGetOperand(gep, 0) != p ||
      !is_i8(LLVMGetGEPSourceElementType(gep)) || !LLVMIsAConstantInt(LLVMGetOperand(gep, 1)))
    return 0;
  return LLVMConstIntGetSExtValue(LLVMGetOperand(gep, 1));
}

/* The block's phis, each a counter entered from the preheader and stepped in the block. */
static bool find_counters(ByteLoop *l) {
  for (LLVMValueRef phi = LLVMGetFirstInstruction(l->body); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    if (l->ncounters == MAX_COUNTERS || LLVMCountIncoming(phi) != 2) return false;
    Counter c = {phi, NULL, NULL, 0};
    for (unsigned i = 0; i < 2; i++) {
      if (LLVMGetIncomingBlock(phi, i) == l->preheader) c.start = LLVMGetIncomingValue(phi, i);
      if (LLVMGetIncomingBlock(phi, i) == l->body) c.next = LLVMGetIncomingValue(phi, i);
    }
    if (!c.start || !c.next) return false;
    if (ir_is_ptr(LLVMTypeOf(phi))) c.step = byte_step(c.next, phi);
    else if (LLVMIsAInstruction(c.next) && LLVMGetInstructionOpcode(c.next) == LLVMAdd) {
      LLVMValueRef a = LLVMGetOperand(c.next, 0), b = LLVMGetOperand(c.next, 1), k = a == phi ? b : b == phi ? a : NULL;
      if (k && LLVMIsAConstantInt(k)) c.step = LLVMConstIntGetSExtValue(k);
    }
    if (c.step != 1 && c.step != -1) return false;
    l->counters[l->ncounters++] = c;
  }
  return true;
}

/* Whether an address is start + k in the k-th iteration (from 0): a pointer counter, or a gep of i8 from a
 * pointer defined outside the loop by an integer counter stepping by 1. */
static bool byte_address(ByteLoop *l, LLVMValueRef p) {
  Counter *c = counter_of(l, p);
  if (c) return ir_is_ptr(LLVMTypeOf(p)) && c->step == 1;
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2 || !is_i8(LLVMGetGEPSourceElementType(p)) ||
      defined_in(LLVMGetOperand(p, 0), l->body))
    return false;
  c = counter_of(l, LLVMGetOperand(p, 1));
  return c && c->step == 1;
}

/* The address in the first iteration, built on the way into the loop. */
static LLVMValueRef first_address(ByteLoop *l, LLVMBuilderRef b, LLVMValueRef p) {
  Counter *c = counter_of(l, p);
  if (c) return c->start;
  LLVMValueRef index = counter_of(l, LLVMGetOperand(p, 1))->start;
  return LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(p), LLVMGetOperand(p, 0), &index, 1, "");
}

static bool plain_access(LLVMValueRef i) {
  return !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
}

/* The block's instructions: the counters, their steps, byte loads and stores at byte addresses, the geps
 * that make those, the exit test; none used after the loop. */
static bool only_moves(ByteLoop *l) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(l->body); i; i = LLVMGetNextInstruction(i)) {
    for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u))
      if (!defined_in(LLVMGetUser(u), l->body)) return false;
    if (LLVMIsAPHINode(i) || LLVMIsATerminatorInst(i) || ir_is_debug_intrinsic(i)) continue;
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMLoad:
      if (l->nloads == 2 || l->nstores || !is_i8(LLVMTypeOf(i)) || !plain_access(i) || !byte_address(l, LLVMGetOperand(i, 0)))
        return false;
      l->loads[l->nloads++] = i;
      break;
    case LLVMStore:
      if (l->nstores == 2 || !is_i8(LLVMTypeOf(LLVMGetOperand(i, 0))) || !plain_access(i) || !byte_address(l, LLVMGetOperand(i, 1)))
        return false;
      l->stores[l->nstores++] = i;
      break;
    case LLVMGetElementPtr:
    case LLVMAdd:
    case LLVMICmp:
      break; /* what they compute is checked where it is used: addresses, steps, the test */
    default: return false;
    }
  }
  for (LLVMValueRef i = LLVMGetFirstInstruction(l->body); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMGetInstructionOpcode(i) != LLVMGetElementPtr && LLVMGetInstructionOpcode(i) != LLVMAdd) continue;
    bool step = false; /* else an address of a load or a store */
    for (unsigned k = 0; k < l->ncounters; k++) step |= l->counters[k].next == i;
    for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      bool address = (LLVMIsALoadInst(user) && LLVMGetOperand(user, 0) == i) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == i);
      if (!address && !LLVMIsAPHINode(user) && !LLVMIsAICmpInst(user)) return false;
    }
    if (!step && LLVMGetInstructionOpcode(i) == LLVMAdd) return false;
  }
  return true;
}

/* The exit test: leaves when a counter's next value equals a value defined outside the loop. */
static bool find_test(ByteLoop *l) {
  LLVMValueRef br = LLVMGetBasicBlockTerminator(l->body);
  if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br)) return false;
  LLVMBasicBlockRef t = LLVMGetSuccessor(br, 0), f = LLVMGetSuccessor(br, 1);
  if ((t == l->body) == (f == l->body)) return false;
  l->exit = t == l->body ? f : t;
  LLVMValueRef cond = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(cond) || !defined_in(cond, l->body)) return false;
  LLVMIntPredicate exits_when = t == l->body ? LLVMIntNE : LLVMIntEQ; /* the test's predicate, to leave on equal */
  if (LLVMGetICmpPredicate(cond) != exits_when) return false;
  for (unsigned side = 0; side < 2; side++) {
    LLVMValueRef v = LLVMGetOperand(cond, side), other = LLVMGetOperand(cond, 1 - side);
    for (unsigned k = 0; k < l->ncounters; k++)
      if (l->counters[k].next == v && !defined_in(other, l->body) &&
          (ir_is_ptr(LLVMTypeOf(v)) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) <= 64)) {
        l->tested = &l->counters[k], l->limit = other;
        return true;
      }
  }
  return false;
}

/* The iterations: the tested counter goes from its start to its limit, one step each. */
static LLVMValueRef trip_count(ByteLoop *l, LLVMBuilderRef b, LLVMTypeRef i64) {
  LLVMValueRef start = l->tested->start, limit = l->limit;
  if (ir_is_ptr(LLVMTypeOf(start))) return LLVMBuildSub(b, LLVMBuildPtrToInt(b, limit, i64, ""), LLVMBuildPtrToInt(b, start, i64, ""), "");
  LLVMValueRef n = l->tested->step == 1 ? LLVMBuildSub(b, limit, start, "") : LLVMBuildSub(b, start, limit, "");
  return LLVMBuildZExtOrBitCast(b, n, i64, "");
}

typedef enum { NOT_A_MOVE, COPY, SWAP } Move;

/* Which move the loads and stores make: a store of the load's byte elsewhere, or two places' bytes each
 * stored in the other. */
static Move move_of(ByteLoop *l) {
  if (l->nloads == 1 && l->nstores == 1)
    return LLVMGetOperand(l->stores[0], 0) == l->loads[0] ? COPY : NOT_A_MOVE;
  if (l->nloads != 2 || l->nstores != 2) return NOT_A_MOVE;
  for (unsigned s = 0; s < 2; s++) {
    LLVMValueRef value = LLVMGetOperand(l->stores[s], 0), at = LLVMGetOperand(l->stores[s], 1);
    LLVMValueRef other = value == l->loads[0] ? l->loads[1] : value == l->loads[1] ? l->loads[0] : NULL;
    if (!other || LLVMGetOperand(other, 0) != at) return NOT_A_MOVE;
  }
  return LLVMGetOperand(l->stores[0], 0) != LLVMGetOperand(l->stores[1], 0) ? SWAP : NOT_A_MOVE;
}

static LLVMValueRef byte_loop_call(LLVMModuleRef m, LLVMBuilderRef b, const char *name, LLVMValueRef *args) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), params[3] = {ptr, ptr, LLVMInt64TypeInContext(c)};
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 3, 0);
  return LLVMBuildCall2(b, fty, library_function(m, name, fty), args, 3, "");
}

enum { BUFFER_ON_STACK = 4096 }; /* a swap of a constant size up to this uses a buffer in the frame */

/* a and q swapped through a buffer: memcpy, memmove (the two may be one), memcpy. */
static void swap_blocks(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef a, LLVMValueRef q, LLVMValueRef n) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  bool on_stack = LLVMIsAConstantInt(n) && LLVMConstIntGetZExtValue(n) <= BUFFER_ON_STACK;
  LLVMValueRef buffer =
      on_stack ? ir_entry_alloca(fn, LLVMArrayType2(LLVMInt8TypeInContext(c), LLVMConstIntGetZExtValue(n) ? LLVMConstIntGetZExtValue(n) : 1), "swap.buffer")
               : ir_call_named(b, "malloc", LLVMFunctionType(ptr, &i64, 1, 0), &n, 1);
  LLVMBuildMemCpy(b, buffer, 1, a, 1, n);
  LLVMBuildMemMove(b, a, 1, q, 1, n);
  LLVMBuildMemCpy(b, q, 1, buffer, 1, n);
  if (!on_stack) ir_call_named(b, "free", LLVMFunctionType(LLVMVoidTypeInContext(c), &ptr, 1, 0), &buffer, 1);
}

static void rewrite(LLVMModuleRef m, LLVMBuilderRef b, ByteLoop *l, Move move) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef fn = LLVMGetBasicBlockParent(l->body), into = LLVMGetBasicBlockTerminator(l->preheader);
  /* a block of its own on the way in: the block before the loop may branch elsewhere too */
  LLVMBasicBlockRef enter = LLVMInsertBasicBlockInContext(c, l->body, "bytes.enter");
  for (unsigned s = 0, ns = LLVMGetNumSuccessors(into); s < ns; s++)
    if (LLVMGetSuccessor(into, s) == l->body) LLVMSetSuccessor(into, s, enter);
  LLVMPositionBuilderAtEnd(b, enter);
  LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(l->stores[0]));
  /* copy: to, from; swap: the two places */
  LLVMValueRef to = first_address(l, b, LLVMGetOperand(l->stores[0], 1));
  LLVMValueRef from = first_address(l, b, move == COPY ? LLVMGetOperand(l->loads[0], 0) : LLVMGetOperand(l->stores[1], 1));
  LLVMValueRef n = trip_count(l, b, i64);
  LLVMValueRef ti = LLVMBuildPtrToInt(b, to, i64, ""), fi = LLVMBuildPtrToInt(b, from, i64, "");
  LLVMValueRef overlapping;
  if (move == COPY) /* the destination inside the source, after its start */
    overlapping = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntUGT, ti, fi, ""), LLVMBuildICmp(b, LLVMIntULT, LLVMBuildSub(b, ti, fi, ""), n, ""), "");
  else { /* apart by less than n, and not the same */
    LLVMValueRef apart = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, ti, fi, ""), LLVMBuildSub(b, ti, fi, ""), LLVMBuildSub(b, fi, ti, ""), "");
    overlapping = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, apart, LLVMConstNull(i64), ""), LLVMBuildICmp(b, LLVMIntULT, apart, n, ""), "");
  }
  LLVMBasicBlockRef blocks = LLVMInsertBasicBlockInContext(c, l->body, "bytes.blocks");
  LLVMBasicBlockRef bytes = LLVMInsertBasicBlockInContext(c, l->body, "bytes.overlapping");
  LLVMBasicBlockRef join = LLVMInsertBasicBlockInContext(c, l->body, "bytes.moved");
  ir_branch_weights(LLVMBuildCondBr(b, overlapping, bytes, blocks), 1, 1000);
  LLVMValueRef args[3] = {to, from, n};
  LLVMPositionBuilderAtEnd(b, blocks);
  if (move == COPY) LLVMBuildMemMove(b, to, 1, from, 1, n);
  else swap_blocks(m, b, fn, to, from, n);
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, bytes);
  byte_loop_call(m, b, move == COPY ? "__parad_rt_byte_copy" : "__parad_rt_byte_swap", args);
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, join);
  LLVMBuildBr(b, l->exit);
  LLVMSetCurrentDebugLocation2(b, NULL);
  for (LLVMValueRef phi = LLVMGetFirstInstruction(l->exit); phi && LLVMIsAPHINode(phi);) {
    LLVMValueRef next = LLVMGetNextInstruction(phi);
    cfg_phi_reroute(phi, l->body, join, NULL);
    phi = next;
  }
  LLVMDeleteBasicBlock(l->body);
}

/* The loop that natural loop `cl` is, if it is a byte move of one block. */
static Move byte_loop(const CfgLoop *cl, ByteLoop *l) {
  *l = (ByteLoop){.body = cl->header, .preheader = cl->preheader};
  LLVMValueRef into = cl->preheader ? LLVMGetBasicBlockTerminator(cl->preheader) : NULL;
  if (!into || cl->latch != cl->header || !LLVMIsABranchInst(into)) return NOT_A_MOVE;
  if (!find_counters(l) || !only_moves(l) || !find_test(l)) return NOT_A_MOVE;
  return move_of(l);
}

unsigned byte_loops_apply(LLVMModuleRef m, const ValueMap *reached) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  unsigned rewritten = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (!vmap_has(reached, fn) || LLVMIsDeclaration(fn)) continue;
    for (bool again = true; again;) { /* the cfg is built again after each rewrite */
      again = false;
      Cfg cfg;
      cfg_build(fn, &cfg);
      CfgLoopList loops = {0};
      cfg_natural_loops(&cfg, &loops);
      for (size_t k = 0; k < loops.len && !again; k++) {
        ByteLoop l;
        Move move = byte_loop(&loops.data[k], &l);
        if (move != NOT_A_MOVE) rewrite(m, b, &l, move), rewritten++, again = true;
      }
      for (size_t k = 0; k < loops.len; k++) free(loops.data[k].body);
      vec_free(&loops);
      cfg_free(&cfg);
    }
  }
  LLVMDisposeBuilder(b);
  return rewritten;
}

bool byte_loops_maybe(LLVMModuleRef m, const ValueMap *reached) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (!vmap_has(reached, fn)) continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsAStoreInst(i) && LLVMIsALoadInst(LLVMGetOperand(i, 0)) && is_i8(LLVMTypeOf(LLVMGetOperand(i, 0))))
          return true;
  }
  return false;
}
