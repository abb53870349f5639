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
 * sweep records a frame), no critical section (a ticket), no loop inside with records of its own. */
static bool only_records(RevGen *g, Loop *l) {
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

/* An iteration's record packs its blocks' records (plan_pack), the widest-aligned first, and is padded to
 * its widest alignment, so that every slot of every iteration is aligned; the run's records together are
 * padded to 8 bytes, as every record on the tape is. */
void plan_bulk(RevGen *g) {
  unsigned *align = xcalloc(g->cfg.blocks.len + 1, sizeof *align);
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (!l->exit_iv || !only_records(g, l)) continue;
    unsigned bytes = 0, most = 1;
    for (size_t b = 0; b < g->cfg.blocks.len; b++)
      if (l->body[b] && g->plan[b].record_bytes) plan_pack(g, &g->plan[b], &align[b]);
    for (unsigned a = 8; a >= 1; a /= 2)
      for (size_t b = 0; b < g->cfg.blocks.len; b++)
        if (l->body[b] && g->plan[b].record_bytes && align[b] == a) {
          g->plan[b].bulk = l;
          g->plan[b].bulk_offset = bytes;
          bytes += g->plan[b].record_bytes;
          if (a > most) most = a;
        }
    l->bulk_bytes = (bytes + most - 1) / most * most;
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

/* Whether this run of l records nothing at all: every record of its blocks holds values of a task's inputs
 * that the run reads from their copy (rev_shared.c); NULL when some record may hold anything else. Its
 * records are then not reserved, in either sweep (a tile's reads, 16 bytes per multiply-add, not even
 * reserved). */
static LLVMValueRef run_copied(RevGen *g, Loop *l) {
  LLVMValueRef all = NULL;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    BlockPlan *p = &g->plan[b];
    if (p->bulk != l) continue;
    for (size_t i = 0; i < p->captures.len; i++) {
      Capture *c = &p->captures.data[i];
      LLVMValueRef flag = shared_copy_flag(g, c);
      if (!flag) return NULL;
      LLVMValueRef inside = LLVMBuildLoad2(g->b, LLVMInt1TypeInContext(g->ctx), flag, "");
      all = all ? LLVMBuildAnd(g->b, all, inside, "") : inside;
    }
  }
  return all;
}

/* The bytes a run of l reserves: its trip count's records (to a multiple of 8), or none (run_copied). */
static LLVMValueRef run_bytes(RevGen *g, Loop *l, LLVMValueRef trip) {
  LLVMValueRef bytes = LLVMBuildMul(g->b, trip, LLVMConstInt(g->i64, l->bulk_bytes, 0), "");
  if (l->bulk_bytes % 8)
    bytes = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, bytes, LLVMConstInt(g->i64, 7, 0), ""), LLVMConstInt(g->i64, ~7ull, 0), "");
  LLVMValueRef copied = run_copied(g, l);
  return copied ? LLVMBuildSelect(g->b, copied, LLVMConstInt(g->i64, 0, 0), bytes, "") : bytes;
}

static LLVMValueRef step_cursor(RevGen *g, Loop *l, long long by) {
  LLVMValueRef at = LLVMBuildLoad2(g->b, g->ptr_type, l->cursor, "");
  LLVMValueRef d = LLVMConstInt(g->i64, (unsigned long long)by, 1);
  LLVMValueRef next = LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), at, &d, 1, "");
  LLVMBuildStore(g->b, next, l->cursor);
  return next;
}

void bulk_aug_after_block(RevGen *g, LLVMBasicBlockRef bb) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (!l->bulk_bytes) continue;
    if (bb == l->latch) step_cursor(g, l, l->bulk_bytes);
    if (bb != l->preheader) continue;
    LLVMValueRef trip = loop_trip(g, l, aug_value);
    LLVMValueRef bytes = run_bytes(g, l, trip);
    if (loop_ends_recomputed(g, l)) { /* the reverse sweep knows the count */
      LLVMBuildStore(g->b, tape_reserve_value(g, bytes), l->cursor);
      continue;
    }
    LLVMValueRef base = tape_reserve_value(g, LLVMBuildAdd(g->b, bytes, LLVMConstInt(g->i64, 8, 0), ""));
    tape_store(g, LLVMBuildGEP2(g->b, i8, base, &bytes, 1, ""), 0, trip);
    LLVMBuildStore(g->b, base, l->cursor);
  }
}

void bulk_rev_enter(RevGen *g, Loop *l) {
  if (!l->bulk_bytes) return;
  LLVMValueRef trip = loop_ends_recomputed(g, l) ? loop_trip(g, l, rv) : tape_load(g, tape_release(g, 8), 0, g->i64);
  LLVMValueRef size = LLVMConstInt(g->i64, l->bulk_bytes, 0);
  LLVMValueRef base = tape_release_value(g, run_bytes(g, l, trip));
  LLVMValueRef last = LLVMBuildMul(g->b, LLVMBuildSub(g->b, trip, LLVMConstInt(g->i64, 1, 0), ""), size, "");
  LLVMBuildStore(g->b, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), base, &last, 1, ""), l->cursor);
}

void bulk_rev_back(RevGen *g, Loop *l) {
  if (l->bulk_bytes) step_cursor(g, l, -(long long)l->bulk_bytes);
}
