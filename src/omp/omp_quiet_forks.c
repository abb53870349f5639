/* Between two parallel regions: what the program writes.
 *
 * A region whose threads copy what they read (runtime/omp.c, "copies trusted") may take a copy the
 * region before it made, without comparing, where nothing changed the memory in between. Between the two
 * forks the program may run any code: the runtime sees none of it. Here a point (a fork, or a call) is
 * quiet when every path that reaches it comes from a region through code that writes only the function's
 * own local variables, and calls only what writes nothing. A path comes from a region where it starts at
 * a fork of the function, or at a call of a function that ends with its region (whose every path to its
 * return comes from one of its forks and writes nothing); or at the function's entry, where the caller
 * says its call was quiet (it gives the chain, runtime/omp.c __parad_rt_chain_give): HPCCG's kernels, a
 * function each, called one after another. A region may have read the locals: the runtime keeps copies
 * of the forking thread's stack out (the locals are listed here only to check they stay on the stack). */
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

static bool is_fork(LLVMValueRef i) { return call_classify(i, NULL) == CALL_OMP && omp_classify(i) == OMP_FORK; }

typedef struct {
  OmpChainSource source; /* besides forks, calls the walk may start at (NULL: none) */
  void *ctx;
  bool stores;           /* whether the path may write locals */
  ValueList *locals;
} Walk;

/* Scans backwards from `from` (excluded; NULL: the block's end) to the block's start: 1 where it met a
 * fork or a call that ends with a region, 0 where it reached the start with only quiet code, -1 where
 * something may write. */
static int scan_back(const Walk *w, LLVMBasicBlockRef bb, LLVMValueRef from) {
  for (LLVMValueRef i = from ? LLVMGetPreviousInstruction(from) : LLVMGetLastInstruction(bb); i; i = LLVMGetPreviousInstruction(i)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMFence || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) return -1;
    if (op == LLVMStore) {
      LLVMValueRef local = local_of(LLVMGetOperand(i, 1));
      if (!local || !w->stores) return -1;
      bool listed = false;
      for (size_t k = 0; k < w->locals->len && !listed; k++) listed = w->locals->data[k] == local;
      if (!listed) vec_push(w->locals, local);
    }
    if (ir_is_call(i)) {
      if (is_fork(i) || (w->source && w->source(w->ctx, i))) return 1;
      if (!call_quiet(i)) return -1;
    }
  }
  return 0;
}

static OmpQuiet walk_back(const Walk *w, LLVMValueRef at) {
  LLVMBasicBlockRef start = LLVMGetInstructionParent(at);
  Cfg cfg;
  cfg_build(LLVMGetBasicBlockParent(start), &cfg);
  size_t n = cfg.blocks.len, top = 0;
  bool *seen = xcalloc(n + 1, sizeof *seen), from_entry = false;
  int *todo = xcalloc(n + 1, sizeof *todo);
  int s = scan_back(w, start, at), b = cfg_index(&cfg, start);
  bool quiet = s >= 0 && b >= 0;
  if (quiet && s == 0) todo[top++] = b; /* its predecessors next */
  while (quiet && top) {
    b = todo[--top];
    if (cfg.preds[b].len == 0) from_entry = true;
    for (size_t p = 0; quiet && p < cfg.preds[b].len; p++) {
      int c = cfg_index(&cfg, cfg.preds[b].data[p]);
      if (c < 0 || seen[c]) continue;
      seen[c] = true;
      s = scan_back(w, cfg.blocks.data[c], NULL);
      if (s < 0) quiet = false;
      else if (s == 0) todo[top++] = c;
    }
  }
  free(seen);
  free(todo);
  cfg_free(&cfg);
  if (!quiet) w->locals->len = 0;
  return !quiet ? QUIET_NOT : from_entry ? QUIET_FROM_ENTRY : QUIET_FROM_REGION;
}

OmpQuiet omp_quiet_before(LLVMValueRef at, OmpChainSource source, void *ctx, ValueList *locals) {
  Walk w = {source, ctx, true, locals};
  return walk_back(&w, at);
}

bool omp_ends_in_region(LLVMValueRef fn) {
  if (!fn || LLVMIsDeclaration(fn)) return false;
  ValueList none = {0};
  Walk w = {NULL, NULL, false, &none};
  bool ends = false; /* a function that never returns ends with nothing */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (!term || LLVMGetInstructionOpcode(term) != LLVMRet) continue;
    ends = walk_back(&w, term) == QUIET_FROM_REGION;
    if (!ends) break;
  }
  vec_free(&none);
  return ends;
}

bool omp_takes_chain(LLVMValueRef fn) {
  if (!fn || LLVMIsDeclaration(fn)) return false;
  bool takes = false;
  ValueList locals = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !takes; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !takes; i = LLVMGetNextInstruction(i))
      if (ir_is_call(i) && is_fork(i)) {
        locals.len = 0;
        takes = omp_quiet_before(i, NULL, NULL, &locals) == QUIET_FROM_ENTRY;
      }
  vec_free(&locals);
  return takes;
}
