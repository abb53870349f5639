/* Which predecessor a block was entered from, found again in the reverse sweep by replaying the branches
 * that chose it, instead of recorded: a branch on data costs nothing on the tape when its conditions can
 * be recomputed (whether a sparse matrix's row read again is empty, an index array's entry compared).
 *
 * D, the block's immediate dominator, ran last before the block did; the way from D to the block runs
 * through the region of blocks that D reaches without passing D and that reach the block without passing
 * D. From D on, each branch's condition is recomputed and followed, until it reaches the block (its
 * predecessor is the branch's block) or a block of the region from which only one of the predecessors can
 * be reached. The walk goes only through blocks on no cycle of the region (each ran once between D and the
 * block), and the block itself must be on no cycle that avoids D (else D's run is not the last before
 * it). Conditions are recomputed from what the block's reverse has at no cost (constants, arguments,
 * counted induction variables, values of blocks that run once, and cheap arithmetic and repeatable loads
 * of those), and from copies of the region's own cheap instructions, made in the walk where the block that
 * defines them is known to have run. Anything else, and the predecessor is recorded as before.
 *
 * Floating-point conditions are replayed too, where the recomputed value is the forward sweep's to the
 * bit: the same IEEE operations on the same inputs, none with a fast-math flag that would let the
 * optimiser rearrange one copy and not the other (under -ffast-math they stay recorded; a replay that
 * found no way to the block would trap, not guess). They were recorded at first: a cut-off test of
 * coordinates read again is taken at random, and the reverse sweep, waiting for the recomputed value
 * before it knows where to go, ran a Lennard-Jones gradient 11% slower than reading the recorded way.
 * Once the forward sweep no longer computes an energy nobody reads (omp_unread_shared.c), a pair loop
 * whose only record was that test has nothing left to do in the forward sweep, and the optimiser removes
 * it: the kernel suite's ljcells 31 -> 22 ms (2.42 -> 1.68-1.75 primals, 2.15 -> 1.50-1.55 times the
 * hand-written force loop); every other kernel and benchmark within its noise. Integer tests
 * of data read again in a loop (a row's extent, an index array's entry) are cheap and mostly predictable.
 * Tests of counters, constants and what was read once are recorded too: replayed, they gave LLVM
 * loop-invariant branches to unswitch in the reverse loops, and a multigrid gradient ran 10% slower (a row
 * loop's guard, recorded once per row). But a test that moves with a counter of the block's own innermost
 * loop is replayed: no branch there is invariant in that loop, and a padded convolution's border tests,
 * recorded per tap and per tap row, were most of its tape (moves_with_counter). */
#include <stdint.h>
#include <stdlib.h>

#include <llvm-c/DebugInfo.h>

#include "reverse/rev_internal.h"

enum { MAX_WALK = 8, MAX_COPIES = 40, MAX_DEPTH = 12 };

typedef struct {
  RevGen *g;
  LLVMBasicBlockRef bb, dom;
  size_t n;
  bool *region;  /* per cfg position: between D and the block (neither included) */
  bool *walk;    /* per cfg position: a block the replay goes through (D included) */
  int *only;     /* per cfg position in the region: the only predecessor reachable from it, or -1 */
  ValueList copies; /* the region's instructions the walk copies */
  ValueList leaves; /* values from outside the region the walk uses: needs of the block */
  unsigned cost;
} Replay;

static bool *reach(Replay *r, LLVMBasicBlockRef from, bool forward, bool (*stop)(Replay *, size_t)) {
  Cfg *cfg = &r->g->cfg;
  bool *seen = xcalloc(r->n + 1, 1);
  BlockList work = {0};
  vec_push(&work, from);
  while (work.len) {
    LLVMBasicBlockRef x = work.data[--work.len];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(x);
    BlockList *preds = &cfg->preds[cfg_index(cfg, x)];
    unsigned m = forward ? (term ? LLVMGetNumSuccessors(term) : 0) : (unsigned)preds->len;
    for (unsigned k = 0; k < m; k++) {
      LLVMBasicBlockRef y = forward ? LLVMGetSuccessor(term, k) : preds->data[k];
      int i = cfg_index(cfg, y);
      if (i < 0 || seen[i]) continue;
      seen[i] = true;
      if (!stop(r, (size_t)i)) vec_push(&work, y);
    }
  }
  vec_free(&work);
  return seen;
}

static bool at_dom(Replay *r, size_t i) { return r->g->cfg.blocks.data[i] == r->dom; }
static bool at_dom_or_block(Replay *r, size_t i) { return at_dom(r, i) || r->g->cfg.blocks.data[i] == r->bb; }
static bool outside_region(Replay *r, size_t i) { return !r->region[i]; }

/* Is x on a cycle of the region: can it reach itself through the region's blocks. */
static bool on_region_cycle(Replay *r, LLVMBasicBlockRef x) {
  bool *seen = reach(r, x, true, outside_region);
  bool cycle = seen[cfg_index(&r->g->cfg, x)];
  free(seen);
  return cycle;
}

static bool listed(ValueList *l, LLVMValueRef v) {
  for (size_t i = 0; i < l->len; i++)
    if (l->data[i] == v) return true;
  return false;
}

/* Can the walk have v's value where it needs it: copied in the walk (an instruction of a block of the
 * region it goes through), or a need of the block. */
static bool replayable(Replay *r, LLVMValueRef v, int depth) {
  RevGen *g = r->g;
  if (!LLVMIsAInstruction(v) && !LLVMIsAArgument(v)) return true; /* constants and globals as they are */
  if (listed(&r->copies, v) || listed(&r->leaves, v)) return true;
  LLVMBasicBlockRef def = LLVMIsAArgument(v) ? LLVMGetEntryBasicBlock(g->orig) : LLVMGetInstructionParent(v);
  int d = cfg_index(&g->cfg, def);
  if (d < 0 || depth > MAX_DEPTH) return false;
  if (!r->region[d]) {
    unsigned budget = MAX_COPIES > r->cost ? MAX_COPIES - r->cost : 0, left = budget;
    if (!rev_free_at(g, v, r->bb, true, &left)) return false;
    r->cost += budget - left;
    vec_push(&r->leaves, v);
    return true;
  }
  if (!r->walk[d] || LLVMIsAPHINode(v) || !rev_same_bits(v) || !(recomputable(v) || reloadable(g, v)) ||
      ++r->cost > MAX_COPIES)
    return false;
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    if (!replayable(r, LLVMGetOperand(v, i), depth + 1)) return false;
  vec_push(&r->copies, v);
  return true;
}

static int pred_position(Replay *r, LLVMBasicBlockRef p) {
  BlockList *preds = &r->g->cfg.preds[cfg_index(&r->g->cfg, r->bb)];
  for (size_t k = 0; k < preds->len; k++)
    if (preds->data[k] == p) return (int)k;
  return -1;
}

static void replay_free(Replay *r) {
  free(r->region);
  free(r->walk);
  free(r->only);
  vec_free(&r->copies);
  vec_free(&r->leaves);
}

/* Whether v moves with a counter of the innermost loop around bb (a padded convolution's `iy < 0 ||
 * iy >= H` over its tap's counter): replayed, it is no branch the optimiser could take out of the loop. */
static bool moves_with_counter(RevGen *g, LLVMValueRef v, LLVMBasicBlockRef bb, int depth) {
  Loop *l = loop_innermost(g, bb);
  if (!l || !LLVMIsAInstruction(v) || depth > 8) return false;
  for (size_t k = 0; k < l->ivs.len; k++)
    if (l->ivs.data[k].phi == v) return true;
  if (LLVMIsAPHINode(v) || !recomputable(v)) return false;
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    if (moves_with_counter(g, LLVMGetOperand(v, i), bb, depth + 1)) return true;
  return false;
}

static bool analyse(RevGen *g, LLVMBasicBlockRef bb, Replay *r) {
  Cfg *cfg = &g->cfg;
  int b = cfg_index(cfg, bb);
  *r = (Replay){.g = g, .bb = bb, .n = cfg->blocks.len};
  if (b <= 0 || cfg->idom[b] < 0) return false;
  r->dom = cfg->blocks.data[cfg->idom[b]];
  BlockList *preds = &cfg->preds[b];
  /* the region: reached from D without passing D or the block, reaching the block without passing D */
  bool *from_dom = reach(r, r->dom, true, at_dom_or_block);
  bool *to_block = reach(r, bb, false, at_dom);
  r->region = xcalloc(r->n + 1, 1);
  for (size_t i = 0; i < r->n; i++) r->region[i] = from_dom[i] && to_block[i] && i != (size_t)b && cfg->blocks.data[i] != r->dom;
  free(from_dom);
  free(to_block);
  r->walk = xcalloc(r->n + 1, 1);
  r->only = xcalloc(r->n + 1, sizeof *r->only);
  /* the block on a cycle avoiding D: D's last run need not be the last before it */
  bool *around = reach(r, bb, true, at_dom);
  bool ok = !around[b];
  free(around);
  for (size_t k = 0; k < preds->len && ok; k++)
    ok = preds->data[k] == r->dom || r->region[cfg_index(cfg, preds->data[k])];
  if (!ok) return false;
  for (size_t i = 0; i < r->n; i++) r->only[i] = -2; /* none yet */
  for (size_t k = 0; k < preds->len; k++) {
    if (preds->data[k] == r->dom) continue;
    int p = cfg_index(cfg, preds->data[k]);
    bool *up = reach(r, preds->data[k], false, outside_region);
    up[p] = true;
    for (size_t i = 0; i < r->n; i++)
      if (up[i] && r->region[i]) r->only[i] = r->only[i] == -2 ? (int)k : -1;
    free(up);
  }
  /* the walk, from D: through the blocks of the region whose branches must be replayed */
  BlockList work = {0};
  vec_push(&work, r->dom);
  r->walk[cfg_index(cfg, r->dom)] = true;
  size_t walked = 1;
  while (work.len && ok) {
    LLVMBasicBlockRef x = work.data[--work.len];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(x);
    if (!term || LLVMGetInstructionOpcode(term) != LLVMBr) {
      ok = false;
      break;
    }
    for (unsigned s = 0, m = LLVMGetNumSuccessors(term); s < m && ok; s++) {
      LLVMBasicBlockRef y = LLVMGetSuccessor(term, s);
      int i = cfg_index(cfg, y);
      if (y == bb || i < 0 || !r->region[i] || r->only[i] >= 0 || r->walk[i]) continue;
      ok = ++walked <= MAX_WALK && !on_region_cycle(r, y);
      r->walk[i] = true;
      vec_push(&work, y);
    }
  }
  vec_free(&work);
  /* the conditions, once every block of the walk is known; one at least on data read in a loop */
  bool data = false;
  for (size_t i = 0; i < r->n && ok; i++) {
    if (!r->walk[i]) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(cfg->blocks.data[i]);
    if (!LLVMIsConditional(term)) continue;
    ok = replayable(r, LLVMGetCondition(term), 0);
    data |= rev_read_in_loop(g, LLVMGetCondition(term)) || moves_with_counter(g, LLVMGetCondition(term), bb, 0);
  }
  return ok && data;
}

bool replay_plan(RevGen *g, LLVMBasicBlockRef bb) {
  Replay r;
  bool ok = analyse(g, bb, &r);
  if (ok)
    for (size_t i = 0; i < r.leaves.len; i++) rv(g, r.leaves.data[i]);
  replay_free(&r);
  vmap_put(&g->replayed, LLVMBasicBlockAsValue(bb), (void *)(uintptr_t)(1 + ok));
  return ok;
}

static LLVMValueRef replayed_value(RevGen *g, ValueMap *copy, LLVMValueRef v) {
  LLVMValueRef c = vmap_get(copy, v);
  return c ? c : rv(g, v);
}

bool replay_dispatch(RevGen *g, LLVMBasicBlockRef bb, LLVMBasicBlockRef *edges) {
  if (vmap_get(&g->replayed, LLVMBasicBlockAsValue(bb)) != (void *)2) return false;
  Replay r;
  if (!analyse(g, bb, &r)) { /* planned otherwise: cannot happen, the analysis is the same */
    replay_free(&r);
    rev_error(g, NULL, "parad: internal error: a block's predecessor cannot be replayed as planned");
    return false;
  }
  Cfg *cfg = &g->cfg;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
  LLVMBasicBlockRef *chain = xcalloc(r.n + 1, sizeof *chain), trap = NULL;
  for (size_t i = 0; i < r.n; i++)
    if (r.walk[i]) chain[i] = LLVMAppendBasicBlockInContext(g->ctx, fn, "replay");
  LLVMBuildBr(g->b, chain[cfg_index(cfg, r.dom)]);
  ValueMap copy;
  vmap_init(&copy);
  for (size_t i = 0; i < r.n; i++) { /* reverse post-order: a copy's operands are copied before it */
    if (!r.walk[i]) continue;
    LLVMBasicBlockRef x = cfg->blocks.data[i];
    LLVMPositionBuilderAtEnd(g->b, chain[i]);
    for (LLVMValueRef v = LLVMGetFirstInstruction(x); v; v = LLVMGetNextInstruction(v)) {
      if (!listed(&r.copies, v)) continue;
      LLVMValueRef c = LLVMInstructionClone(v);
      for (unsigned k = 0, m = (unsigned)LLVMGetNumOperands(v); k < m; k++)
        LLVMSetOperand(c, k, replayed_value(g, &copy, LLVMGetOperand(v, k)));
      LLVMInsertIntoBuilder(g->b, c);
      LLVMInstructionSetDebugLoc(c, NULL);
      if (LLVMIsALoadInst(v)) scope_reload(g, c);
      vmap_put(&copy, v, c);
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(x);
    LLVMBasicBlockRef to[2];
    unsigned m = LLVMGetNumSuccessors(term);
    for (unsigned s = 0; s < m; s++) {
      LLVMBasicBlockRef y = LLVMGetSuccessor(term, s);
      int k = cfg_index(cfg, y);
      if (y == bb) to[s] = edges[pred_position(&r, x)];
      else if (k >= 0 && r.region[k] && r.only[k] >= 0) to[s] = edges[r.only[k]];
      else if (k >= 0 && r.walk[k]) to[s] = chain[k];
      else { /* a way that does not lead to the block: the forward sweep did not take it */
        if (!trap) {
          LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
          trap = LLVMAppendBasicBlockInContext(g->ctx, fn, "replay.impossible");
          LLVMPositionBuilderAtEnd(g->b, trap);
          ir_call_named(g->b, "llvm.trap", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), NULL, 0, 0), NULL, 0);
          LLVMBuildUnreachable(g->b);
          LLVMPositionBuilderAtEnd(g->b, here);
        }
        to[s] = trap;
      }
    }
    if (LLVMIsConditional(term))
      LLVMBuildCondBr(g->b, replayed_value(g, &copy, LLVMGetCondition(term)), to[0], to[1]);
    else
      LLVMBuildBr(g->b, to[0]);
  }
  vmap_free(&copy);
  free(chain);
  replay_free(&r);
  return true;
}
