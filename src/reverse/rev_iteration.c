/* Values several blocks of one loop iteration need, recorded once, at its latch.
 *
 * A block records what its own reverse needs (rev_values.c). A loop body of branches that each read the
 * same values (the three arms of an upwind flux, repeated per component; the two of each limiter) then
 * records them once per block that needs them: an Euler solver's HLL flux recorded the four states'
 * loads and their sound speeds three times per interface. Where every path of an iteration from the
 * value's definition to the latch passes a block that needs it, each iteration records it at least once
 * anyway; recorded at the latch instead, it is recorded exactly once, and the reverse sweep, which
 * starts each iteration at the latch, keeps it in a slot for the iteration's other blocks.
 *
 * Which way the iteration entered each of its joins (a limiter's, a flux's) goes to the latch too, where
 * the joins run in every iteration: a byte each, packed in one record, instead of a record of its own
 * per join (8 bytes, and a move of the tape's top).
 *
 * Only in loops left from their latch alone (every iteration ends there), for values defined in the
 * loop in a block that dominates the latch, needed by blocks whose innermost loop it is, and recorded
 * in a block's record (not hoisted, not in the frame). */
#include <stdlib.h>

#include "reverse/rev_internal.h"

/* Every iteration of l ends at its latch: the only block that goes round, and the only one that leaves. */
static bool ends_at_latch(RevGen *g, Loop *l) {
  if (!l->latch) return false;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    if (!l->body[b] || g->cfg.blocks.data[b] == l->latch) continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->cfg.blocks.data[b]);
    for (unsigned s = 0, n = LLVMGetNumSuccessors(t); s < n; s++)
      if (!in_loop(g, l, LLVMGetSuccessor(t, s))) return false;
  }
  return true;
}

/* Whether item it, needed in bb, would be recorded at the end of bb, as l's latch would record it (a
 * load read back from a region's copy in runs that copy is made for: at both, or at neither). */
static bool recorded_as_at_latch(RevGen *g, Loop *l, LLVMBasicBlockRef bb, Item it) {
  return it.kind == NEED_PRIMAL && LLVMIsAInstruction(it.value) && item_captured(g, bb, it) &&
         !cfg_runs_once(&g->cfg, LLVMGetInstructionParent(it.value)) &&
         shared_copied_in(g, it.value, bb) == shared_copied_in(g, it.value, l->latch);
}

static bool needs(RevGen *g, size_t b, Item it) { return item_index(g->plan[b].needs.data, g->plan[b].needs.len, it) >= 0; }

/* Block b: in l, l its innermost loop, needing it and recording it as l's latch would. */
static bool needing_block(RevGen *g, Loop *l, size_t b, Item it) {
  LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
  return l->body[b] && loop_innermost(g, bb) == l && needs(g, b, it) && recorded_as_at_latch(g, l, bb, it);
}

/* Whether every path from the item's definition to l's latch passes a block that needs it (the
 * definition's block and the latch included), and at least two blocks of l need it. */
static bool worth_sharing(RevGen *g, Loop *l, Item it) {
  size_t n = g->cfg.blocks.len, needing = 0;
  for (size_t b = 0; b < n; b++) needing += needing_block(g, l, b, it);
  if (needing < 2) return false;
  bool *seen = xcalloc(n + 1, sizeof *seen);
  size_t *stack = xcalloc(n + 1, sizeof *stack), top = 0;
  int def = cfg_index(&g->cfg, LLVMGetInstructionParent(it.value));
  bool covered = true;
  stack[top++] = (size_t)def;
  seen[def] = true;
  while (top && covered) {
    size_t b = stack[--top];
    LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
    if (needing_block(g, l, b, it)) continue;
    if (bb == l->latch) {
      covered = false;
      break;
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    for (unsigned s = 0, ns = LLVMGetNumSuccessors(t); s < ns; s++) {
      LLVMBasicBlockRef succ = LLVMGetSuccessor(t, s);
      int k = cfg_index(&g->cfg, succ);
      if (k < 0 || seen[k] || !in_loop(g, l, succ) || succ == l->header) continue;
      seen[k] = true;
      stack[top++] = (size_t)k;
    }
  }
  free(seen);
  free(stack);
  return covered;
}

/* The joins of l (blocks of its iterations with several predecessors) that run in every iteration and
 * record which way they were entered; to the latch when two or more would share its record. */
static void share_joins(RevGen *g, Loop *l) {
  ValueList joins = {0};
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
    Item it = {LLVMBasicBlockAsValue(bb), NEED_PRED};
    if (l->body[b] && bb != l->latch && loop_innermost(g, bb) == l && cfg_dominates(&g->cfg, bb, l->latch) && needs(g, b, it))
      vec_push(&joins, it.value);
  }
  if (joins.len + (l->shared.len > 0) >= 2)
    for (size_t k = 0; k < joins.len; k++) {
      Item it = {joins.data[k], NEED_PRED};
      vec_push(&l->shared, it);
      note_need(g, l->latch, it.value, it.kind);
    }
  vec_free(&joins);
}

void plan_iteration_shares(RevGen *g) {
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (!ends_at_latch(g, l)) continue;
    ValueMap considered; /* each item once: a long loop body needs the same values in many blocks */
    vmap_init(&considered);
    for (size_t b = 0; b < g->cfg.blocks.len; b++) {
      if (!l->body[b]) continue;
      BlockPlan *p = &g->plan[b];
      for (size_t k = 0; k < p->needs.len; k++) {
        Item it = p->needs.data[k];
        const void *key = item_key(it.value, it.kind);
        if (vmap_has(&considered, key) || !needing_block(g, l, b, it)) continue;
        vmap_put(&considered, key, it.value);
        LLVMBasicBlockRef def = LLVMGetInstructionParent(it.value);
        if (!in_loop(g, l, def) || !cfg_dominates(&g->cfg, def, l->latch) || !worth_sharing(g, l, it)) continue;
        vec_push(&l->shared, it);
        note_need(g, l->latch, it.value, it.kind); /* appended to the latch's needs: p->needs as it was */
      }
    }
    vmap_free(&considered);
    share_joins(g, l);
  }
}

Loop *iteration_share(RevGen *g, Item it, LLVMBasicBlockRef bb, size_t *index) {
  if (it.kind != NEED_PRED && (it.kind != NEED_PRIMAL || !LLVMIsAInstruction(it.value))) return NULL;
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (!l->shared.len) continue; /* first: the others cost a walk over the loops (asked for every need) */
    if (bb && (bb == l->latch || !in_loop(g, l, bb) || loop_innermost(g, bb) != l)) continue;
    long k = item_index(l->shared.data, l->shared.len, it);
    if (k < 0) continue;
    if (index) *index = (size_t)k;
    return l;
  }
  return NULL;
}

void iteration_slots(RevGen *g) {
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    l->shared_slots = xcalloc(l->shared.len + 1, sizeof *l->shared_slots);
    for (size_t k = 0; k < l->shared.len; k++)
      l->shared_slots[k] = LLVMBuildAlloca(g->b, item_type(g, l->shared.data[k]), "iteration.slot");
  }
}

void iteration_keep(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef record) {
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (l->latch != bb) continue;
    for (size_t k = 0; k < l->shared.len; k++) {
      Item it = l->shared.data[k];
      LLVMValueRef v = it.kind == NEED_PRED ? rev_materialise(g, bb, it, record) : rv(g, it.value);
      LLVMBuildStore(g->b, v, l->shared_slots[k]);
    }
  }
}
