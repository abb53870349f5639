/* The records of a counted loop, reserved at once. A loop whose trip count is known when it starts, and
 * whose blocks that record run once per iteration, records the same number of bytes in every
 * iteration: the forward sweep reserves them all before the loop (with the trip count after them, unless
 * the reverse sweep recomputes it) and
 * writes each iteration's record at a cursor; the reverse sweep releases them all when it enters the
 * loop and walks the cursor back. No tape check is left inside the loop, which leaves it a plain loop
 * over memory, one the optimiser can vectorise and reason about. */
#include <stdlib.h>

#include "reverse/rev_internal.h"

static bool in_inner_loop(RevGen *g, Loop *l, LLVMBasicBlockRef bb) {
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *inner = &g->loops.data[i];
    if (inner != l && in_loop(g, inner, bb) && in_loop(g, l, inner->header)) return true;
  }
  return false;
}

/* Nothing in the loop writes to the tape besides its blocks' records: no differentiated call (its forward
 * sweep records a frame), no critical section (a ticket), no loop inside with records of its own or a
 * snapshot (rev_snapshot.c). */
static bool only_records(RevGen *g, Loop *l) {
  if (snapshot_inside(g, l)) return false;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    if (!l->body[b]) continue;
    LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
    if (g->plan[b].record_bytes && (!cfg_every_iteration(&g->cfg, l->body, l->header, l->latch, bb) || in_inner_loop(g, l, bb))) return false;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i)) continue;
      CallKind k = call_classify(i, NULL);
      if (k == CALL_MODULE || k == CALL_OMP || k == CALL_MPI || k == CALL_UNKNOWN || k == CALL_INDIRECT) return false;
    }
  }
  return true;
}

/* The one block of l that records, if only one does and some of its loads may be read from copies: packed
 * with them last (a CG iteration's update, x += alpha p, r -= alpha q: 24 -> 8 bytes a row where p and q
 * are read from copies). */
static BlockPlan *copying_block(RevGen *g, Loop *l) {
  BlockPlan *only = NULL;
  bool copied = false;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    if (!l->body[b] || !g->plan[b].record_bytes) continue;
    if (only) return NULL;
    only = &g->plan[b];
    for (size_t i = 0; i < only->captures.len; i++) copied = copied || capture_copied(g, &only->captures.data[i]);
  }
  return g->region_body && copied ? only : NULL;
}

/* An iteration's record packs its blocks' records (plan_pack), the widest-aligned first, and is padded to
 * its widest alignment, so that every slot of every iteration is aligned; the run's records together are
 * padded to 8 bytes, as every record on the tape is. */
void plan_bulk(RevGen *g) {
  unsigned *align = xcalloc(g->cfg.blocks.len + 1, sizeof *align);
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (!l->exit_iv || !only_records(g, l)) continue;
    unsigned bytes = 0, most = 1, kept = 0;
    BlockPlan *copying = copying_block(g, l);
    for (size_t b = 0; b < g->cfg.blocks.len; b++)
      if (l->body[b] && g->plan[b].record_bytes) plan_pack(g, &g->plan[b], &align[b], &g->plan[b] == copying ? &kept : NULL);
    for (unsigned a = 8; a >= 1; a /= 2)
      for (size_t b = 0; b < g->cfg.blocks.len; b++)
        if (l->body[b] && g->plan[b].record_bytes && align[b] == a) {
          g->plan[b].bulk = l;
          g->plan[b].bulk_offset = bytes;
          bytes += g->plan[b].record_bytes;
          if (a > most) most = a;
        }
    l->bulk_bytes = (bytes + most - 1) / most * most;
    l->bulk_kept = copying ? (kept + most - 1) / most * most : l->bulk_bytes;
  }
  free(align);
}

LLVMValueRef bulk_record(RevGen *g, LLVMBasicBlockRef bb) {
  BlockPlan *p = &g->plan[cfg_index(&g->cfg, bb)];
  if (!p->bulk) return NULL;
  LLVMValueRef at = LLVMBuildLoad2(g->b, g->ptr_type, p->bulk->cursor, "cursor");
  LLVMValueRef off = LLVMConstInt(g->i64, p->bulk_offset, 0);
  return LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), at, &off, 1, "record");
}

void bulk_slots(RevGen *g) {
  for (size_t i = 0; i < g->loops.len; i++)
    if (g->loops.data[i].bulk_bytes) g->loops.data[i].cursor = LLVMBuildAlloca(g->b, g->ptr_type, "cursor.slot");
}

/* The bytes an iteration of this run of l records: fewer where the run reads loads from copies. Where
 * every record of l's blocks holds values of inputs that a run reads from their copies, a task's tile or
 * a region's gather, none: its records are then not reserved, in either sweep (a tile's reads, 16 bytes
 * per multiply-add, not even reserved). */
static LLVMValueRef run_stride_of(RevGen *g, Loop *l, LLVMValueRef *none) {
  LLVMValueRef full = LLVMConstInt(g->i64, l->bulk_bytes, 0), all = NULL;
  bool every = true;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    BlockPlan *p = &g->plan[b];
    if (p->bulk != l) continue;
    for (size_t i = 0; i < p->captures.len; i++) {
      LLVMValueRef flag = shared_copy_flag(g, &p->captures.data[i]);
      if (!flag) {
        every = false;
        continue;
      }
      LLVMValueRef inside = LLVMBuildLoad2(g->b, LLVMInt1TypeInContext(g->ctx), flag, "");
      all = all ? LLVMBuildAnd(g->b, all, inside, "") : inside;
    }
  }
  unsigned kept = every ? 0 : l->bulk_kept;
  if (!all || kept == l->bulk_bytes) return full;
  if (none && !kept) *none = all;
  return LLVMBuildSelect(g->b, all, LLVMConstInt(g->i64, kept, 0), full, "stride");
}

static LLVMValueRef run_stride(RevGen *g, Loop *l) { return run_stride_of(g, l, NULL); }

/* The bytes a run of l reserves: its trip count's records (to a multiple of 8). */
static LLVMValueRef run_bytes(RevGen *g, Loop *l, LLVMValueRef trip, LLVMValueRef *none) {
  LLVMValueRef bytes = LLVMBuildMul(g->b, trip, run_stride_of(g, l, none), "");
  if (l->bulk_bytes % 8 || l->bulk_kept % 8)
    bytes = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, bytes, LLVMConstInt(g->i64, 7, 0), ""), LLVMConstInt(g->i64, ~7ull, 0), "");
  return bytes;
}

static LLVMValueRef step_cursor(RevGen *g, Loop *l, LLVMValueRef by) {
  LLVMValueRef at = LLVMBuildLoad2(g->b, g->ptr_type, l->cursor, "");
  LLVMValueRef next = LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), at, &by, 1, "");
  LLVMBuildStore(g->b, next, l->cursor);
  return next;
}

/* The run's records, then the word saying which streamed inputs the run copied (rev_shared.c), where l's
 * runs may copy any, then the trip count, unless the reverse sweep recomputes it. */
void bulk_aug_after_block(RevGen *g, LLVMBasicBlockRef bb) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (!l->bulk_bytes) continue;
    if (bb == l->latch) step_cursor(g, l, run_stride(g, l));
    if (bb != l->preheader) continue;
    LLVMValueRef trip = loop_trip(g, l, aug_value);
    LLVMValueRef none = NULL, bytes = run_bytes(g, l, trip, &none);
    LLVMValueRef word = shared_runs_copy(g, l) ? shared_run_word(g, l) : NULL;
    bool counted = !loop_ends_recomputed(g, l); /* the reverse sweep does not know the count */
    unsigned after = 8 * (counted + (word != NULL));
    LLVMValueRef base = after  ? tape_reserve_value(g, LLVMBuildAdd(g->b, bytes, LLVMConstInt(g->i64, after, 0), ""))
                        : none ? tape_move_unless(g, none, bytes, true)
                               : tape_reserve_value(g, bytes);
    LLVMValueRef end = LLVMBuildGEP2(g->b, i8, base, &bytes, 1, "");
    if (word) tape_store(g, end, 0, word);
    if (counted) tape_store(g, end, word ? 8 : 0, trip);
    LLVMBuildStore(g->b, base, l->cursor);
  }
}

void bulk_rev_enter(RevGen *g, Loop *l) {
  if (!l->bulk_bytes) return;
  LLVMValueRef trip = loop_ends_recomputed(g, l) ? loop_trip(g, l, rv) : tape_load(g, tape_release(g, 8), 0, g->i64);
  if (shared_runs_copy(g, l)) shared_set_run_copies(g, l, tape_load(g, tape_release(g, 8), 0, g->i64));
  LLVMValueRef size = run_stride(g, l);
  LLVMValueRef none = NULL, bytes = run_bytes(g, l, trip, &none);
  LLVMValueRef base = none ? tape_move_unless(g, none, bytes, false) : tape_release_value(g, bytes);
  LLVMValueRef last = LLVMBuildMul(g->b, LLVMBuildSub(g->b, trip, LLVMConstInt(g->i64, 1, 0), ""), size, "");
  LLVMBuildStore(g->b, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), base, &last, 1, ""), l->cursor);
}

void bulk_rev_back(RevGen *g, Loop *l) {
  if (l->bulk_bytes) step_cursor(g, l, LLVMBuildNeg(g->b, run_stride(g, l), ""));
}
