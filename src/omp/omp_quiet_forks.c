/* Between two parallel regions: what the forking function writes.
 *
 * A region whose threads copy what they read (runtime/omp.c, "copies trusted") may take a copy the
 * region before it made, without comparing, where nothing changed the memory in between. Between the two
 * forks the function itself may run any code: the runtime sees none of it. Here a fork is quiet when
 * every path that reaches it comes from another fork (none from the function's entry: the caller may
 * have written anything) through code that writes only the function's own local variables, and calls
 * only what writes nothing. The locals are listed: a region may have read them, and the runtime keeps
 * copies of them out. */
#include <stdlib.h>

#include "analysis/calls.h"
#include "ir/cfg.h"
#include "ir/ir.h"
#include "omp/omp.h"

/* The local variable (a fixed-size alloca) p points into, or NULL: through offsets, and through phis and
 * selects whose every choice points into it (a loop stepping a pointer), at most `depth` of them deep. */
static LLVMValueRef local_through(LLVMValueRef p, LLVMValueRef from, int depth) {
  for (;;) {
    p = ir_strip_pointer_casts(p);
    if (!LLVMIsAGetElementPtrInst(p)) break;
    p = LLVMGetOperand(p, 0);
  }
  if (LLVMIsAAllocaInst(p)) return LLVMIsAConstantInt(LLVMGetOperand(p, 0)) ? p : NULL;
  if (p == from) return p; /* around a loop: decided by the other choices */
  if (depth == 0 || (!LLVMIsAPHINode(p) && !LLVMIsASelectInst(p))) return NULL;
  LLVMValueRef local = NULL;
  unsigned n = LLVMIsAPHINode(p) ? LLVMCountIncoming(p) : 2;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef v = LLVMIsAPHINode(p) ? LLVMGetIncomingValue(p, i) : LLVMGetOperand(p, i + 1);
    LLVMValueRef l = local_through(v, from ? from : p, depth - 1);
    if (!l || (local && l != local && l != (from ? from : p))) return NULL;
    if (l != (from ? from : p)) local = l;
  }
  return local;
}

static LLVMValueRef local_of(LLVMValueRef p) { return local_through(p, NULL, 4); }

/* Scans backwards from `from` (excluded; NULL: the block's end) to the block's start: 1 where it met a
 * fork, 0 where it reached the start with only quiet code, -1 where something may write. */
static int scan_back(LLVMBasicBlockRef bb, LLVMValueRef from, ValueList *locals) {
  for (LLVMValueRef i = from ? LLVMGetPreviousInstruction(from) : LLVMGetLastInstruction(bb); i; i = LLVMGetPreviousInstruction(i)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMFence || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) return -1;
    if (op == LLVMStore) {
      LLVMValueRef local = local_of(LLVMGetOperand(i, 1));
      if (!local) return -1;
      bool listed = false;
      for (size_t k = 0; k < locals->len && !listed; k++) listed = locals->data[k] == local;
      if (!listed) vec_push(locals, local);
    }
    if (ir_is_call(i)) {
      if (call_classify(i, NULL) == CALL_OMP && omp_classify(i) == OMP_FORK) return 1;
      if (!call_quiet(i)) return -1;
    }
  }
  return 0;
}

bool omp_fork_quiet(LLVMValueRef fork, ValueList *locals) {
  LLVMBasicBlockRef start = LLVMGetInstructionParent(fork);
  Cfg cfg;
  cfg_build(LLVMGetBasicBlockParent(start), &cfg);
  size_t n = cfg.blocks.len, top = 0;
  bool *seen = xcalloc(n + 1, sizeof *seen);
  int *todo = xcalloc(n + 1, sizeof *todo);
  int s = scan_back(start, fork, locals), at = cfg_index(&cfg, start);
  bool quiet = s >= 0 && at >= 0;
  if (quiet && s == 0) todo[top++] = at; /* its predecessors next */
  while (quiet && top) {
    int b = todo[--top];
    if (cfg.preds[b].len == 0) quiet = false; /* the entry */
    for (size_t p = 0; quiet && p < cfg.preds[b].len; p++) {
      int c = cfg_index(&cfg, cfg.preds[b].data[p]);
      if (c < 0 || seen[c]) continue;
      seen[c] = true;
      s = scan_back(cfg.blocks.data[c], NULL, locals);
      if (s < 0) quiet = false;
      else if (s == 0) todo[top++] = c;
    }
  }
  free(seen);
  free(todo);
  cfg_free(&cfg);
  if (!quiet) locals->len = 0;
  return quiet;
}
