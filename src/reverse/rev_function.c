/* The pair of an augmented forward function and a reverse function, as a whole: planning what the
 * reverse sweep needs, writing aug (a copy of the function with shadows and captures), and writing rev
 * (the blocks walked backwards). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "ad/constants.h"
#include "ad/body.h"
#include "ad/slp_outside_reverse.h"
#include "analysis/dependence.h"
#include "ir/diag.h"
#include "reverse/rev_internal.h"
#include "reverse/reverse.h"

void rev_diamond(RevGen *g, LLVMValueRef cond, LLVMBasicBlockRef *yes, LLVMBasicBlockRef *no, LLVMBasicBlockRef *join) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
  *yes = LLVMAppendBasicBlockInContext(g->ctx, fn, "if.yes");
  *no = LLVMAppendBasicBlockInContext(g->ctx, fn, "if.no");
  *join = LLVMAppendBasicBlockInContext(g->ctx, fn, "if.join");
  LLVMBuildCondBr(g->b, cond, *yes, *no);
}

void rev_error(RevGen *g, LLVMValueRef at, const char *fmt, ...) {
  /* the same construct was reported while planning; internal errors are new */
  if (g->phase == WRITING_REV && at && strncmp(fmt, "parad: internal error", 21)) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(at ? at : g->orig, "%s", msg);
  g->errors++;
}

static bool is_dup(char c) { return c == 'd' || c == 'n'; }

/* ---- aug: values and shadows ---- */

LLVMValueRef aug_value(RevGen *g, LLVMValueRef orig) { return ir_mapped(&g->vmap, orig); }

LLVMValueRef aug_shadow(RevGen *g, LLVMValueRef orig, LLVMValueRef at, const char *what) {
  LLVMValueRef s = activity_shadowed(g->act, orig) ? vmap_get(&g->smap, orig) : NULL;
  if (s) return s;
  if (ir_is_pointer_aggregate(LLVMTypeOf(orig))) return aug_aggregate_shadow(g, orig);
  if (LLVMIsAConstantPointerNull(orig) || LLVMIsAUndefValue(orig)) return LLVMConstNull(g->ptr_type);
  if (ir_null_based(orig)) return aug_value(g, orig);
  if (ad_has_constant_shadow(orig)) return ad_constant_shadow(orig, SHADOW_ADD);
  LLVMValueRef stand_in = ad_stand_in_shadow(at, orig, SHADOW_ADD);
  /* a view's operand that shadows itself (ad/constants.h): its loads compare (in a region, adding
     atomically: shared_analyse) */
  if (stand_in == orig) return aug_value(g, orig);
  if (stand_in && stand_in != orig) return stand_in;
  char buf[1024];
  ir_describe_memory(orig, buf, sizeof buf);
  LLVMValueRef through = LLVMIsAStoreInst(at) && LLVMGetOperand(at, 0) == orig ? activity_active_store_through(g->act, LLVMGetOperand(at, 1)) : NULL;
  if (through) /* kept in a variable (-O0): what goes wrong is the store through it */
    rev_error(g, through, "cannot store an active value into memory without a shadow (%s)", buf);
  else
    rev_error(g, at, "%s needs a shadow for memory that has none: %s", what, buf);
  return LLVMConstNull(g->ptr_type);
}

/* A struct of pointers without a shadow struct of its own: a constant's (its pointers' constant shadows),
 * or one of nulls. Only fields activity_shadowed finds a shadow for are read from it. */
LLVMValueRef aug_aggregate_shadow(RevGen *g, LLVMValueRef orig) {
  LLVMValueRef s = activity_shadowed(g->act, orig) ? vmap_get(&g->smap, orig) : NULL;
  if (s) return s;
  LLVMTypeRef t = LLVMTypeOf(orig);
  if (!LLVMIsAConstant(orig) || LLVMIsNull(orig) || LLVMIsUndef(orig)) return LLVMConstNull(t);
  bool is_struct = LLVMGetTypeKind(t) == LLVMStructTypeKind;
  unsigned n = is_struct ? LLVMCountStructElementTypes(t) : (unsigned)LLVMGetArrayLength2(t);
  s = LLVMConstNull(t);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMGetAggregateElement(orig, i);
    if (!e) continue;
    LLVMTypeRef et = LLVMTypeOf(e);
    LLVMValueRef es = ir_is_pointer_aggregate(et) ? aug_aggregate_shadow(g, e)
                      : ir_is_ptr(et) && activity_pointer_has_shadow(g->act, e) ? aug_shadow(g, e, NULL, "a pointer in this constant")
                                                                               : NULL;
    if (es) s = LLVMBuildInsertValue(g->b, s, es, i, "");
  }
  return s;
}

LLVMValueRef aug_clone(RevGen *g, LLVMValueRef inst) { return ir_clone_mapped(g->b, &g->vmap, inst); }

/* ---- signatures ---- */

/* The types of a pair for a function of type fty. The adjoint of an 'o' parameter has the parameter's
 * type, or (an integer carrying a float's bits) the type adj_of gives it, when given. */
static void pair_types(LLVMTypeRef fty, const char *pattern, bool ret_active, bool ret_shadow,
                       LLVMTypeRef (*adj_of)(RevGen *, unsigned), RevGen *g, LLVMTypeRef *aug, LLVMTypeRef *rev) {
  LLVMContextRef ctx = LLVMGetTypeContext(fty);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  unsigned np = LLVMCountParamTypes(fty), n = 0, no = 0;
  LLVMTypeRef *params = xcalloc(np + 1, sizeof *params), *types = xcalloc(2 * np + 1, sizeof *types);
  LLVMTypeRef *outs = xcalloc(np + 1, sizeof *outs);
  LLVMGetParamTypes(fty, params);
  for (unsigned p = 0; p < np; p++) {
    types[n++] = params[p];
    if (is_dup(pattern[p])) types[n++] = ptr;
    if (pattern[p] != 'o') continue;
    LLVMTypeRef t = adj_of ? adj_of(g, p) : adj_type(params[p]);
    outs[no++] = t ? t : LLVMDoubleTypeInContext(ctx); /* none: refused by lanes_analyse */
  }
  LLVMTypeRef r = LLVMGetReturnType(fty);
  if (ret_shadow) { /* a pointer's shadow, or a struct of pointers' (aug_aggregate_shadow) */
    LLVMTypeRef pair[2] = {r, r};
    r = LLVMStructTypeInContext(ctx, pair, 2, 0);
  }
  *aug = LLVMFunctionType(r, types, n, 0);
  /* rev returns the adjoints of the 'o' parameters: one value, a struct of several, or nothing */
  LLVMTypeRef result = no == 0 ? LLVMVoidTypeInContext(ctx) : no == 1 ? outs[0] : LLVMStructTypeInContext(ctx, outs, no, 0);
  LLVMTypeRef d = adj_type(LLVMGetReturnType(fty));
  *rev = LLVMFunctionType(result, &d, ret_active ? 1 : 0, 0);
  free(params);
  free(types);
  free(outs);
}

static LLVMTypeRef param_adj_type(RevGen *g, unsigned p) { return adj_type_of(g, LLVMGetParam(g->orig, p)); }

void rev_pair_types(LLVMTypeRef fty, const char *pattern, PairKind kind, LLVMTypeRef *aug, LLVMTypeRef *rev) {
  pair_types(fty, pattern, kind.ret_active, kind.ret_shadow, NULL, NULL, aug, rev);
}

/* Target attributes stay, so that the pair inlines where f did. */
static void copy_target_attributes(RevGen *g, LLVMValueRef to) {
  unsigned n = LLVMGetAttributeCountAtIndex(g->orig, LLVMAttributeFunctionIndex);
  LLVMAttributeRef *attrs = xcalloc(n + 1, sizeof *attrs);
  LLVMGetAttributesAtIndex(g->orig, LLVMAttributeFunctionIndex, attrs);
  for (unsigned i = 0; i < n; i++) {
    bool keep = LLVMIsStringAttribute(attrs[i]);
    if (!keep && LLVMIsEnumAttribute(attrs[i])) {
      unsigned k = LLVMGetEnumAttributeKind(attrs[i]);
      keep = k == ir_attr_kind("nounwind") || k == ir_attr_kind("uwtable") || k == ir_attr_kind("noinline") ||
             k == ir_attr_kind("optnone");
    }
    if (keep) LLVMAddAttributeAtIndex(to, LLVMAttributeFunctionIndex, attrs[i]);
  }
  free(attrs);
}


/* ---- planning ---- */

static bool is_return_block(LLVMBasicBlockRef bb) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  return t && LLVMGetInstructionOpcode(t) == LLVMRet;
}

/* The reverse of one block's instructions, last to first: phis and the terminator have no adjoint of
 * their own (phis are handled on the way out of the block). */
static void reverse_instructions(RevGen *g, LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  for (LLVMValueRef i = term ? LLVMGetPreviousInstruction(term) : LLVMGetLastInstruction(bb); i;
       i = LLVMGetPreviousInstruction(i)) {
    if (LLVMIsAPHINode(i)) break;
    rev_inst(g, i);
  }
}

static void plan(RevGen *g) {
  g->phase = PLANNING;
  g->scratch = LLVMAddFunction(g->ad->mod, "__parad.scratch", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), NULL, 0, 0));
  LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->ctx, g->scratch, "scratch"));
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
    g->cur = bb;
    reverse_instructions(g, bb);
    window_end_iteration(g, bb);
    if (b == 0) shared_flush(g, true);
    Loop *loop = counted_header(g, bb);
    if (loop) { /* which way back: the first iteration or not; then every induction variable steps back */
      rv(g, loop->ivs.data[0].start);
      for (size_t i = 0; i < loop->ivs.len; i++) rv(g, loop->ivs.data[i].phi);
    }
    else if (g->cfg.preds[b].len > 1 && !replay_plan(g, bb))
      rev_pred_index(g, bb, NULL);
    /* going back into a counted loop starts its induction variables at their last values */
    BlockList *preds = &g->cfg.preds[b];
    for (size_t k = 0; k < preds->len; k++)
      for (size_t l = 0; l < g->loops.len; l++) {
        Loop *loop2 = &g->loops.data[l];
        if (!in_loop(g, loop2, preds->data[k]) || in_loop(g, loop2, bb)) continue;
        for (size_t i = 0; i < loop2->ivs.len; i++) loop_iv_last(g, loop2, &loop2->ivs.data[i]);
        shared_inputs_enter_loop(g, loop2);
        shared_rev_enter_loop(g, loop2);
        window_rev_enter_loop(g, loop2);
      }
  }
  plan_hoisting(g);
  snapshot_prune(g);
  plan_iteration_shares(g);
  LLVMDeleteFunction(g->scratch);
  g->scratch = NULL;
  vmap_free(&g->adj);
  vmap_init(&g->adj);
  plan_layout(g);
  plan_bulk(g);
  plan_pack_records(g);
  plan_followers(g);
  plan_copied_last(g);
}

/* PARAD_PLAN=1 in the environment prints what each block records, for tuning the tape (=all: every
 * block, also those that record nothing). */
static void print_plan(RevGen *g) {
  const char *how = getenv("PARAD_PLAN");
  if (!how) return;
  fprintf(stderr, "plan of %s (%s): frame %u bytes\n", LLVMGetValueName(g->orig), g->pattern, g->frame_bytes);
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    BlockPlan *p = &g->plan[b];
    bool replayed = vmap_get(&g->replayed, LLVMBasicBlockAsValue(g->cfg.blocks.data[b])) == (void *)2;
    if (!p->captures.len && !replayed && strcmp(how, "all")) continue;
    char *first = LLVMPrintValueToString(LLVMGetFirstInstruction(g->cfg.blocks.data[b]));
    fprintf(stderr, "  block #%zu %s%s (starting%.60s): record %u bytes", b, LLVMGetBasicBlockName(g->cfg.blocks.data[b]),
            g->cfg.cyclic[b] ? " (in a loop)" : "", first, p->record_bytes);
    LLVMDisposeMessage(first);
    if (p->bulk) fprintf(stderr, ", reserved with the records of loop #%d's iterations", cfg_index(&g->cfg, p->bulk->header));
    if (p->copied_bytes) fprintf(stderr, ", %u where its loads are read from copies", p->record_bytes - p->copied_bytes);
    fputc('\n', stderr);
    if (replayed) fprintf(stderr, "    predecessor replayed from the branches\n");
    for (size_t i = 0; i < p->captures.len; i++) {
      Capture *c = &p->captures.data[i];
      char *v = c->item.kind == NEED_PRED ? NULL : LLVMPrintValueToString(c->item.value);
      fprintf(stderr, "    %s %s: %.90s\n", c->frame_slot >= 0 ? "frame " : c->below ? "below " : "record",
              c->item.kind == NEED_SHADOW ? "shadow of" : c->item.kind == NEED_PRED ? "predecessor" : "",
              v ? v : "");
      if (v) LLVMDisposeMessage(v);
    }
  }
}

/* ---- writing aug ---- */

static LLVMValueRef capture_value(RevGen *g, Capture *c, LLVMValueRef *pred_phis) {
  LLVMValueRef v = c->item.value;
  /* a value carried out of a loop: the loop's exit may also be reached around the loop, so it comes
   * through a stack slot (promoted to phis later) */
  LLVMValueRef slot = vmap_get(&g->aug_slot, item_key(v, c->item.kind));
  if (slot) return LLVMBuildLoad2(g->b, c->item.kind == NEED_SHADOW ? g->ptr_type : LLVMTypeOf(v), slot, "");
  switch (c->item.kind) {
  case NEED_PRED: return pred_phis[cfg_index(&g->cfg, LLVMValueAsBasicBlock(v))];
  case NEED_SHADOW: return aug_shadow(g, v, LLVMIsAInstruction(v) ? v : NULL, "the reverse sweep");
  case NEED_TAPE: return vmap_get(&g->tapemap, v);
  default: return aug_value(g, v);
  }
}

static void write_captures(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef *pred_phis) {
  BlockPlan *p = &g->plan[cfg_index(&g->cfg, bb)];
  LLVMValueRef record = p->bulk             ? bulk_record(g, bb)
                        : !p->record_bytes ? NULL
                        : p->follows       ? tape_reserve_unchecked(g, p->record_bytes)
                        : p->copied_bytes  ? record_move(g, p, true)
                                           : tape_reserve_ahead(g, p->record_bytes, p->headroom);
  for (size_t i = 0; i < p->captures.len; i++) {
    Capture *c = &p->captures.data[i];
    if (c->below) continue;
    LLVMValueRef v = capture_value(g, c, pred_phis);
    if (c->frame_slot >= 0) {
      LLVMBuildStore(g->b, v, g->frame_alloca[c->frame_slot]);
      continue;
    }
    LLVMValueRef copied = shared_copy_flag(g, c);
    LLVMBasicBlockRef yes = NULL, no, join;
    if (copied) { /* the reverse sweep reads it from the task's copy of its input */
      rev_diamond(g, LLVMBuildLoad2(g->b, LLVMInt1TypeInContext(g->ctx), copied, ""), &yes, &no, &join);
      LLVMPositionBuilderAtEnd(g->b, no);
    }
    tape_store(g, record, c->offset, v);
    if (yes) {
      LLVMBuildBr(g->b, join);
      LLVMPositionBuilderAtEnd(g->b, yes);
      LLVMBuildBr(g->b, join);
      LLVMPositionBuilderAtEnd(g->b, join);
    }
  }
}

static unsigned count_returns(RevGen *g) {
  unsigned n = 0;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) n += is_return_block(g->cfg.blocks.data[b]);
  return n;
}

static unsigned return_index(RevGen *g, LLVMBasicBlockRef bb) {
  unsigned k = 0;
  for (size_t b = 0; b < g->cfg.blocks.len && g->cfg.blocks.data[b] != bb; b++) k += is_return_block(g->cfg.blocks.data[b]);
  return k;
}

static LLVMTypeRef capture_type(RevGen *g, Capture *c) {
  return c->item.kind == NEED_PRED ? rev_pred_type(g, LLVMValueAsBasicBlock(c->item.value))
         : c->item.kind == NEED_PRIMAL ? LLVMTypeOf(c->item.value) : g->ptr_type;
}

/* The frame record: every frame slot, then which return was taken. */
static unsigned frame_record_bytes(RevGen *g) { return g->frame_bytes + (count_returns(g) > 1 ? 8 : 0); }

static void write_return(RevGen *g, LLVMValueRef term) {
  shared_aug_exit(g);
  redirect_aug_exit(g);
  unsigned bytes = frame_record_bytes(g);
  if (bytes) {
    LLVMValueRef record = tape_reserve(g, bytes);
    for (size_t b = 0; b < g->cfg.blocks.len; b++) {
      BlockPlan *p = &g->plan[b];
      for (size_t i = 0; i < p->captures.len; i++) {
        Capture *c = &p->captures.data[i];
        if (c->frame_slot < 0) continue;
        tape_store(g, record, c->offset, LLVMBuildLoad2(g->b, capture_type(g, c), g->frame_alloca[c->frame_slot], ""));
      }
    }
    if (count_returns(g) > 1)
      tape_store(g, record, g->frame_bytes,
                 LLVMConstInt(g->i64, return_index(g, LLVMGetInstructionParent(term)), 0));
  }
  if (LLVMGetNumOperands(term) == 0) {
    LLVMBuildRetVoid(g->b);
    return;
  }
  LLVMValueRef v = LLVMGetOperand(term, 0), pv = aug_value(g, v);
  if (!g->ret_shadow) {
    LLVMBuildRet(g->b, pv);
    return;
  }
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(g->aug));
  LLVMValueRef pair = LLVMBuildInsertValue(g->b, LLVMGetUndef(rt), pv, 0, "");
  LLVMBuildRet(g->b, LLVMBuildInsertValue(g->b, pair, aug_shadow(g, v, term, "the returned pointer"), 1, ""));
}

static void fill_phis(RevGen *g, LLVMValueRef *pred_phis) {
  for (size_t i = 0; i < g->phis.len; i++) {
    LLVMValueRef phi = g->phis.data[i], nphi = vmap_get(&g->vmap, phi), sphi = vmap_get(&g->smap, phi);
    for (unsigned k = 0, n = LLVMCountIncoming(phi); k < n; k++) {
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, k);
      LLVMValueRef nfrom = vmap_get(&g->exits, LLVMBasicBlockAsValue(from));
      if (!nfrom) continue;
      LLVMBasicBlockRef nbb = LLVMValueAsBasicBlock(nfrom);
      LLVMValueRef v = LLVMGetIncomingValue(phi, k), nv = aug_value(g, v);
      LLVMAddIncoming(nphi, &nv, &nbb, 1);
      if (sphi) {
        LLVMValueRef sv = aug_shadow(g, v, phi, "this pointer phi");
        LLVMAddIncoming(sphi, &sv, &nbb, 1);
      }
    }
  }
  /* which predecessor a block was entered from: its position in cfg.preds, once per edge */
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    if (!pred_phis[b]) continue;
    BlockList *preds = &g->cfg.preds[b];
    for (size_t k = 0; k < preds->len; k++) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(preds->data[k]);
      LLVMBasicBlockRef npred = LLVMValueAsBasicBlock(vmap_get(&g->exits, LLVMBasicBlockAsValue(preds->data[k])));
      LLVMValueRef idx = LLVMConstInt(LLVMTypeOf(pred_phis[b]), k, 0);
      for (unsigned s = 0, n = LLVMGetNumSuccessors(term); s < n; s++)
        if (LLVMGetSuccessor(term, s) == g->cfg.blocks.data[b]) LLVMAddIncoming(pred_phis[b], &idx, &npred, 1);
    }
  }
}

/* The latest value of each value carried out of a loop, defined in bb, into its stack slot. */
static void keep_latest(RevGen *g, LLVMBasicBlockRef bb) {
  for (size_t l = 0; l < g->loops.len; l++) {
    Loop *loop = &g->loops.data[l];
    for (size_t i = 0; i < loop->ivs.len && loop->header == bb; i++) {
      LLVMValueRef phi = loop->ivs.data[i].phi;
      LLVMBuildStore(g->b, aug_value(g, phi), vmap_get(&g->aug_slot, item_key(phi, NEED_PRIMAL)));
    }
    for (size_t i = 0; i < loop->hoisted.len; i++) {
      Item it = loop->hoisted.data[i];
      if (item_def_block(g, it) != bb) continue;
      LLVMValueRef v = it.kind == NEED_SHADOW ? aug_shadow(g, it.value, NULL, "a loop") : aug_value(g, it.value);
      LLVMBuildStore(g->b, v, vmap_get(&g->aug_slot, item_key(it.value, it.kind)));
    }
  }
}

/* aug, at the start of a block (after its phis): the copies made as a loop ends there, a chunk's start. */
static void block_starts(RevGen *g, LLVMBasicBlockRef bb) {
  snapshot_aug_at(g, bb);
  shared_outputs_at(g, bb);
  shared_aug_chunk_start(g, bb);
}

static void write_aug(RevGen *g) {
  g->phase = WRITING_AUG;
  vmap_init(&g->vmap);
  vmap_init(&g->smap);
  vmap_init(&g->tapemap);
  vmap_init(&g->exits);
  vmap_init(&g->aug_slot);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->ctx, g->aug, "entry");
  LLVMPositionBuilderAtEnd(g->b, entry);
  g->tape = tape_current(g);
  bulk_slots(g);
  shared_aug_entry(g);
  redirect_aug_entry(g);
  snapshot_aug_entry(g);
  omp_chain_take(g);
  g->frame_alloca = xcalloc(g->frame_slots + 1, sizeof *g->frame_alloca);
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (size_t i = 0; i < g->plan[b].captures.len; i++) {
      Capture *c = &g->plan[b].captures.data[i];
      if (c->frame_slot >= 0) g->frame_alloca[c->frame_slot] = LLVMBuildAlloca(g->b, capture_type(g, c), "frame");
    }
  for (size_t l = 0; l < g->loops.len; l++) {
    Loop *loop = &g->loops.data[l];
    for (size_t i = 0; i < loop->ivs.len; i++) {
      LLVMValueRef phi = loop->ivs.data[i].phi;
      vmap_put(&g->aug_slot, item_key(phi, NEED_PRIMAL), LLVMBuildAlloca(g->b, LLVMTypeOf(phi), "last"));
    }
    for (size_t i = 0; i < loop->hoisted.len; i++) {
      Item it = loop->hoisted.data[i];
      const void *key = item_key(it.value, it.kind);
      if (!vmap_has(&g->aug_slot, key))
        vmap_put(&g->aug_slot, key, LLVMBuildAlloca(g->b, it.kind == NEED_SHADOW ? g->ptr_type : LLVMTypeOf(it.value), "last"));
    }
  }
  unsigned k = 0;
  for (unsigned p = 0, np = LLVMCountParams(g->orig); p < np; p++) {
    LLVMValueRef op = LLVMGetParam(g->orig, p), ap = LLVMGetParam(g->aug, k++);
    size_t len;
    const char *name = LLVMGetValueName2(op, &len);
    LLVMSetValueName2(ap, name, len);
    vmap_put(&g->vmap, op, ap);
    if (is_dup(g->pattern[p])) {
      LLVMValueRef sp = LLVMGetParam(g->aug, k++);
      LLVMSetValueName2(sp, "shadow", 6);
      vmap_put(&g->smap, op, sp);
    }
  }
  LLVMValueRef *pred_phis = xcalloc(g->cfg.blocks.len + 1, sizeof *pred_phis);
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    size_t len;
    const char *name = LLVMGetValueName2(LLVMBasicBlockAsValue(g->cfg.blocks.data[b]), &len);
    LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(g->ctx, g->aug, name);
    vmap_put(&g->vmap, LLVMBasicBlockAsValue(g->cfg.blocks.data[b]), LLVMBasicBlockAsValue(nb));
  }
  LLVMBuildBr(g->b, LLVMValueAsBasicBlock(vmap_get(&g->vmap, LLVMBasicBlockAsValue(g->cfg.blocks.data[0]))));
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
    LLVMPositionBuilderAtEnd(g->b, LLVMValueAsBasicBlock(vmap_get(&g->vmap, LLVMBasicBlockAsValue(bb))));
    if (g->cfg.preds[b].len > 1) pred_phis[b] = LLVMBuildPhi(g->b, rev_pred_type(g, bb), "pred");
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    bool started = false;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && i != term; i = LLVMGetNextInstruction(i)) {
      if (!started && !LLVMIsAPHINode(i)) block_starts(g, bb), started = true;
      aug_inst(g, i);
    }
    if (!started) block_starts(g, bb);
    keep_latest(g, bb);
    write_captures(g, bb, pred_phis);
    shared_inputs_after_block(g, bb); /* before the records are reserved: a run may leave them out */
    bulk_aug_after_block(g, bb);
    shared_aug_after_block(g, bb);
    redirect_aug_after_block(g, bb);
    snapshot_aug_after_block(g, bb);
    vmap_put(&g->exits, LLVMBasicBlockAsValue(bb), LLVMBasicBlockAsValue(LLVMGetInsertBlock(g->b)));
    if (LLVMGetInstructionOpcode(term) == LLVMRet)
      write_return(g, term);
    else
      aug_inst(g, term);
  }
  fill_phis(g, pred_phis);
  free(pred_phis);
  ir_strip_locations(g->aug);
  ir_strip_loop_hints(g->aug);
}

/* ---- writing rev ---- */

static LLVMBasicBlockRef rblock(RevGen *g, LLVMBasicBlockRef orig) {
  return LLVMValueAsBasicBlock(vmap_get(&g->rblock, LLVMBasicBlockAsValue(orig)));
}

static LLVMValueRef incoming_for(LLVMValueRef phi, LLVMBasicBlockRef from) {
  for (unsigned i = 0, n = LLVMCountIncoming(phi); i < n; i++)
    if (LLVMGetIncomingBlock(phi, i) == from) return LLVMGetIncomingValue(phi, i);
  return LLVMGetUndef(LLVMTypeOf(phi));
}

/* The way back from a block's reverse to a predecessor's: the adjoints of the block's phis go to the
 * values coming in along that edge, and a counted loop the edge enters starts its induction variable. */
static void edge(RevGen *g, LLVMBasicBlockRef bb, LLVMBasicBlockRef pred, ValueList *phis, ValueList *dphis) {
  for (size_t p = 0; p < phis->len; p++) adj_add(g, incoming_for(phis->data[p], pred), dphis->data[p]);
  for (size_t l = 0; l < g->loops.len; l++) {
    Loop *c = &g->loops.data[l];
    if (!in_loop(g, c, pred) || in_loop(g, c, bb)) continue;
    snapshot_rev_enter_loop(g, c); /* pushed last, as the loop ended */
    shared_inputs_enter_loop(g, c);
    bulk_rev_enter(g, c);
    shared_rev_enter_loop(g, c);
    window_rev_enter_loop(g, c);
    for (size_t i = 0; i < c->ivs.len; i++) LLVMBuildStore(g->b, loop_iv_last(g, c, &c->ivs.data[i]), c->ivs.data[i].slot);
    for (size_t i = 0; i < c->hoisted.len; i++) {
      Item it = c->hoisted.data[i];
      LLVMBuildStore(g->b, it.kind == NEED_SHADOW ? rs(g, it.value) : rv(g, it.value), c->slots[i]);
    }
  }
  LLVMBuildBr(g->b, rblock(g, pred));
}

/* On the way out of a block's reverse: on to the predecessor the forward sweep came from. */
static void dispatch(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef record, LLVMBasicBlockRef exit) {
  size_t b = (size_t)cfg_index(&g->cfg, bb);
  ValueList phis = {0}, dphis = {0};
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
    if (!activity_varied(g->act, i) || !adj_type_of(g, i)) continue;
    vec_push(&phis, i);
    vec_push(&dphis, adj_take(g, i));
  }
  BlockList *preds = &g->cfg.preds[b];
  Loop *loop = counted_header(g, bb);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
  if (b == 0) {
    LLVMBuildBr(g->b, exit);
  } else if (preds->len == 1) {
    edge(g, bb, preds->data[0], &phis, &dphis);
  } else if (loop) { /* the first iteration came from the preheader; the others from the latch */
    Induction *first = &loop->ivs.data[0];
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(g->ctx, fn, "loop.start");
    LLVMBasicBlockRef around = LLVMAppendBasicBlockInContext(g->ctx, fn, "loop.back");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, rv(g, first->phi), rv(g, first->start), ""), out, around);
    LLVMPositionBuilderAtEnd(g->b, out);
    edge(g, bb, loop->preheader, &phis, &dphis);
    LLVMPositionBuilderAtEnd(g->b, around);
    for (size_t i = 0; i < loop->ivs.len; i++) {
      Induction *iv = &loop->ivs.data[i];
      LLVMBuildStore(g->b, LLVMBuildSub(g->b, rv(g, iv->phi), iv->step, ""), iv->slot);
    }
    bulk_rev_back(g, loop);
    edge(g, bb, loop->latch, &phis, &dphis);
  } else {
    LLVMBasicBlockRef *edges = xcalloc(preds->len, sizeof *edges);
    for (size_t k = 0; k < preds->len; k++) edges[k] = LLVMAppendBasicBlockInContext(g->ctx, fn, "edge");
    if (!replay_dispatch(g, bb, edges)) {
      LLVMValueRef sw = LLVMBuildSwitch(g->b, rev_pred_index(g, bb, record), edges[0], (unsigned)preds->len - 1);
      for (size_t k = 1; k < preds->len; k++) LLVMAddCase(sw, LLVMConstInt(rev_pred_type(g, bb), k, 0), edges[k]);
    }
    for (size_t k = 0; k < preds->len; k++) {
      LLVMPositionBuilderAtEnd(g->b, edges[k]);
      edge(g, bb, preds->data[k], &phis, &dphis);
    }
    free(edges);
  }
  vec_free(&phis);
  vec_free(&dphis);
}

static void write_rev(RevGen *g) {
  g->phase = WRITING_REV;
  vmap_init(&g->rblock);
  vmap_init(&g->frame_value);
  vmap_free(&g->local); /* planning's */
  vmap_init(&g->local);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "entry");
  LLVMPositionBuilderAtEnd(g->b, entry);
  g->tape = tape_current(g);
  bulk_slots(g);
  window_slots(g);
  shared_rev_entry(g);
  snapshot_rev_entry(g);
  if (g->parallel) { /* a team of one thread adds plainly where a team would add atomically */
    LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
    LLVMValueRef alone = ir_call_named(g->b, "__parad_rt_team_alone", LLVMFunctionType(i32, NULL, 0, 0), NULL, 0);
    g->solo = LLVMBuildICmp(g->b, LLVMIntNE, alone, LLVMConstInt(i32, 0, 0), "solo");
    g->ad->run_long_conditions = true; /* loops get a copy for each */
  }
  redirect_rev_entry(g);
  unsigned bytes = frame_record_bytes(g), nreturns = count_returns(g);
  LLVMValueRef frame = bytes ? tape_release(g, bytes) : NULL;
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (size_t i = 0; i < g->plan[b].captures.len; i++) {
      Capture *c = &g->plan[b].captures.data[i];
      if (c->frame_slot >= 0) vmap_put(&g->frame_value, c, tape_load(g, frame, c->offset, capture_type(g, c)));
    }
  LLVMValueRef ret_index = nreturns > 1 ? tape_load(g, frame, g->frame_bytes, g->i64) : NULL;
  for (size_t l = 0; l < g->loops.len; l++) {
    Loop *loop = &g->loops.data[l];
    for (size_t i = 0; i < loop->ivs.len; i++)
      loop->ivs.data[i].slot = LLVMBuildAlloca(g->b, LLVMTypeOf(loop->ivs.data[i].phi), "iv.slot");
    loop->slots = xcalloc(loop->hoisted.len + 1, sizeof *loop->slots);
    for (size_t i = 0; i < loop->hoisted.len; i++) {
      Item it = loop->hoisted.data[i];
      loop->slots[i] = LLVMBuildAlloca(g->b, it.kind == NEED_SHADOW ? g->ptr_type : LLVMTypeOf(it.value), "invariant.slot");
    }
  }
  iteration_slots(g);
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    LLVMBasicBlockRef rb = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "reverse");
    vmap_put(&g->rblock, LLVMBasicBlockAsValue(g->cfg.blocks.data[b]), LLVMBasicBlockAsValue(rb));
  }
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "exit");
  /* start where the forward sweep returned */
  if (nreturns > 1) {
    LLVMValueRef sw = LLVMBuildSwitch(g->b, ret_index, exit, nreturns);
    for (size_t b = 0; b < g->cfg.blocks.len; b++)
      if (is_return_block(g->cfg.blocks.data[b]))
        LLVMAddCase(sw, LLVMConstInt(g->i64, return_index(g, g->cfg.blocks.data[b]), 0), rblock(g, g->cfg.blocks.data[b]));
  } else {
    LLVMBasicBlockRef only = exit; /* a function that never returns has nothing to reverse */
    for (size_t b = 0; b < g->cfg.blocks.len; b++)
      if (is_return_block(g->cfg.blocks.data[b])) only = rblock(g, g->cfg.blocks.data[b]);
    LLVMBuildBr(g->b, only);
  }
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    LLVMBasicBlockRef bb = g->cfg.blocks.data[b];
    g->cur = bb;
    LLVMPositionBuilderAtEnd(g->b, rblock(g, bb));
    BlockPlan *p = &g->plan[b];
    /* a block that reads its predecessor's record releases its own even when empty: the release makes
       the chunk holding both the current one */
    LLVMValueRef record = p->bulk                        ? bulk_record(g, bb)
                          : p->copied_bytes              ? record_move(g, p, false)
                          : p->record_bytes || p->follows ? tape_release(g, p->record_bytes)
                                                          : NULL;
    materialise_needs(g, bb, record);
    iteration_keep(g, bb, record);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    if (g->ret_active && LLVMGetInstructionOpcode(term) == LLVMRet && LLVMGetNumOperands(term) == 1)
      adj_add(g, LLVMGetOperand(term, 0), LLVMGetParam(g->rev, 0));
    reverse_instructions(g, bb);
    shared_rev_chunk_start(g, bb);
    window_end_iteration(g, bb);
    if (b == 0) shared_flush(g, true); /* the reverse sweep's end */
    dispatch(g, bb, record, exit);
  }
  /* the adjoints of the active scalar parameters */
  LLVMPositionBuilderAtEnd(g->b, exit);
  rev_omp_wait_adjoint_tasks(g);
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(g->rev));
  if (LLVMGetTypeKind(rt) == LLVMVoidTypeKind) {
    LLVMBuildRetVoid(g->b);
  } else {
    LLVMValueRef result = LLVMGetUndef(rt);
    unsigned k = 0, n = 0;
    for (unsigned p = 0, np = LLVMCountParams(g->orig); p < np; p++) n += g->pattern[p] == 'o';
    for (unsigned p = 0, np = LLVMCountParams(g->orig); p < np; p++) {
      if (g->pattern[p] != 'o') continue;
      LLVMValueRef param = LLVMGetParam(g->orig, p);
      LLVMValueRef d = adj_take(g, param);
      result = n == 1 ? d : LLVMBuildInsertValue(g->b, result, d, k++, "");
    }
    LLVMBuildRet(g->b, result);
  }
  ir_strip_locations(g->rev);
  rev_scope_reloads(g);
}

/* ---- the pair ---- */

static char *pair_key(LLVMValueRef fn, const char *pattern, PairKind k) {
  return xasprintf("rev|%s|%s|%d%d%d%d%d%d%d|%llx|%llx|%llx|%llx|%llx|%llx", LLVMGetValueName(fn), pattern, k.ret_active, k.ret_shadow,
                   k.top_level, k.parallel, k.region_body, k.task_body, k.one_thread, k.unwritten, k.unwritten_slots,
                   k.unwritten_held, k.unwritten_globals, k.redirected, k.own);
}

bool rev_pair(AdModule *ad, LLVMValueRef fn, const char *pattern, PairKind kind, RevPair *out) {
  char *key = pair_key(fn, pattern, kind);
  char *rkey = xasprintf("%s|rev", key);
  bool ret_active = kind.ret_active, ret_shadow = kind.ret_shadow, top_level = kind.top_level;
  out->ret_active = ret_active;
  out->ret_shadow = ret_shadow;
  out->aug = ad_find_generated(ad, key);
  if (out->aug) {
    out->rev = ad_find_generated(ad, rkey);
    bool failed = ad_failed(ad, key);
    free(key);
    free(rkey);
    return !failed;
  }
  fn = ad_body(ad, fn);
  RevGen g = {.ad = ad, .orig = fn, .pattern = pattern, .ret_active = ret_active, .ret_shadow = ret_shadow,
              .reload_inputs = top_level && writes_only_own_memory(fn), .top_level = top_level, .unwritten = kind.unwritten,
              .unwritten_slots = kind.unwritten_slots, .unwritten_held = kind.unwritten_held, .unwritten_globals = kind.unwritten_globals, .parallel = kind.parallel,
              .region_body = kind.region_body, .task_body = kind.task_body, .one_thread = kind.one_thread,
              .redirected = kind.redirected, .own = kind.own, .ctx = ad->ctx};
  g.ptr_type = LLVMPointerTypeInContext(g.ctx, 0);
  g.i64 = LLVMInt64TypeInContext(g.ctx);
  /* activity knows 'd' and 'o' as active, 'c' as constant */
  char *act = xstrdup(pattern);
  for (char *c = act; *c; c++)
    if (*c == 'n') *c = 'd';
  g.act = activity_get(ad, fn, act);
  free(act);
  vmap_init(&g.lanes);
  vmap_init(&g.record_choice);
  vmap_init(&g.known_after);
  vmap_init(&g.replayed);
  lanes_analyse(&g); /* before the signatures: an integer parameter carrying a float has its adjoint's type */
  const char *variant = top_level ? ".top" : kind.parallel ? ".par" : "";
  char *aname = xasprintf("augmented%s.%s.%s", variant, LLVMGetValueName(fn), pattern);
  char *rname = xasprintf("reverse%s.%s.%s", variant, LLVMGetValueName(fn), pattern);
  LLVMTypeRef aug_type, rev_type;
  pair_types(LLVMGlobalGetValueType(fn), pattern, ret_active, ret_shadow, param_adj_type, &g, &aug_type, &rev_type);
  g.aug = LLVMAddFunction(ad->mod, aname, aug_type);
  g.rev = LLVMAddFunction(ad->mod, rname, rev_type);
  free(aname);
  free(rname);
  LLVMSetLinkage(g.aug, LLVMInternalLinkage);
  LLVMSetLinkage(g.rev, LLVMInternalLinkage);
  copy_target_attributes(&g, g.aug);
  copy_target_attributes(&g, g.rev);
  LLVMAddAttributeAtIndex(g.rev, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(g.ctx, SLP_REVERSE_ATTR, strlen(SLP_REVERSE_ATTR), "", 0));
  ad_remember_generated(ad, key, g.aug); /* before the bodies: recursion calls them */
  ad_remember_generated(ad, rkey, g.rev);
  out->aug = g.aug;
  out->rev = g.rev;
  char *out_key = key;
  free(rkey);

  /* only trying (a function a function pointer may point to): this pair's own errors, kept apart */
  bool trying = diag_trying();
  if (trying) diag_capture_begin(true);
  cfg_build(fn, &g.cfg);
  find_loops(&g);
  shared_analyse(&g);
  redirect_analyse(&g);
  snapshot_analyse(&g);
  window_analyse(&g);
  g.plan = xcalloc(g.cfg.blocks.len + 1, sizeof *g.plan);
  vmap_init(&g.adj);
  vmap_init(&g.local);
  g.b = LLVMCreateBuilderInContext(g.ctx);
  if (!g.errors) plan(&g);
  print_plan(&g);
  if (!g.errors) {
    write_aug(&g);
    tape_localise(&g, g.aug);
  }
  if (!g.errors) {
    write_rev(&g);
    tape_localise(&g, g.rev);
    adj_slots_localise(&g);
    shared_rev_version(&g);
    ad_iter_step(g.aug);
    ad_iter_step(g.rev);
  }
  LLVMDisposeBuilder(g.b);
  for (size_t b = 0; b < g.cfg.blocks.len; b++) {
    vec_free(&g.plan[b].captures);
    vec_free(&g.plan[b].needs);
  }
  free(g.plan);
  free(g.frame_alloca);
  vec_free(&g.phis);
  vmap_free(&g.vmap);
  vmap_free(&g.smap);
  vmap_free(&g.tapemap);
  vmap_free(&g.exits);
  vmap_free(&g.aug_slot);
  vmap_free(&g.rblock);
  vmap_free(&g.frame_value);
  vmap_free(&g.local);
  vmap_free(&g.adj);
  vmap_free(&g.lanes);
  vmap_free(&g.record_choice);
  vmap_free(&g.known_after);
  vmap_free(&g.replayed);
  dependence_free(g.dependence);
  window_free(&g);
  shared_free(&g);
  redirect_free(&g);
  snapshot_free(&g);
  free_loops(&g);
  cfg_free(&g.cfg);
  char *kept = trying ? diag_capture_end() : NULL;
  if (g.errors) ad_remember_failure(ad, out_key, kept);
  free(kept);
  free(out_key);
  return g.errors == 0;
}
