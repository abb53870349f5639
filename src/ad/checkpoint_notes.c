/* What a checkpointed step notes for the snapshots (see checkpoint.h): each load and store outside its own
 * memory calls the runtime with its site, base pointer, address and size; the functions it calls are
 * copied with notes of their own; what the step may not do is refused here. After the derivatives are
 * written the notes test their common case inline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/body.h"
#include "ad/checkpoint.h"
#include "ad/checkpoint_auto.h"
#include "ad/checkpoint_internal.h"
#include "analysis/calls.h"
#include "analysis/memtype.h"
#include "ir/cfg.h"
#include "ir/diag.h"
#include "mpi/mpi.h"
#include "omp/omp.h"

/* After differentiation: each note tests inline against the hull its site grew last (words 1 and 2),
 * which the optimiser may load once per loop; the runtime's function tests again, so a stale hull costs
 * only a call. (Before, the branch would have made the derivative record which way each access went.) */
static void expand_note(LLVMContextRef c, LLVMValueRef call, bool team) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  unsigned at = team ? 1 : 0; /* a team's note has the thread number second */
  LLVMValueRef site = LLVMGetArgOperand(call, 0), addr = LLVMGetArgOperand(call, 2 + at),
               size = LLVMGetArgOperand(call, 3 + at);
  LLVMBasicBlockRef head = cfg_split_before(c, call), here = LLVMGetInstructionParent(call);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef slot = LLVMConstInt(i64, 0, 0), mine = NULL;
  if (team) { /* the thread's own hull set, if it has one */
    LLVMValueRef gtid = LLVMGetArgOperand(call, 1);
    mine = LLVMBuildICmp(b, LLVMIntULT, gtid, LLVMConstInt(LLVMTypeOf(gtid), TEAM_SLOTS - 1, 0), "");
    slot = LLVMBuildMul(b, LLVMBuildZExt(b, LLVMBuildSelect(b, mine, gtid, LLVMConstNull(LLVMTypeOf(gtid)), ""), i64, ""),
                        LLVMConstInt(i64, SITE_WORDS, 0), "");
  }
  LLVMValueRef word1 = LLVMBuildAdd(b, slot, LLVMConstInt(i64, 1, 0), ""), word2 = LLVMBuildAdd(b, slot, LLVMConstInt(i64, 2, 0), "");
  LLVMValueRef lo = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, i64, site, &word1, 1, ""), "");
  LLVMValueRef hi = LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, i64, site, &word2, 1, ""), "");
  LLVMValueRef end = LLVMBuildGEP2(b, LLVMInt8TypeInContext(c), addr, &size, 1, "");
  LLVMValueRef inside = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntUGE, addr, lo, ""), LLVMBuildICmp(b, LLVMIntULE, end, hi, ""), "");
  if (mine) inside = LLVMBuildAnd(b, inside, mine, "");
  LLVMBasicBlockRef slow = LLVMInsertBasicBlockInContext(c, here, "ckpt.note");
  LLVMValueRef br = LLVMBuildCondBr(b, inside, here, slow);
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(call);
  LLVMInstructionSetDebugLoc(br, loc);
  LLVMPositionBuilderAtEnd(b, slow);
  LLVMInstructionSetDebugLoc(LLVMBuildBr(b, here), loc);
  LLVMInstructionRemoveFromParent(call);
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(slow));
  LLVMInsertIntoBuilder(b, call);
  LLVMDisposeBuilder(b);
}

/* ---- a loop's notes at once ----
 * A note in a counted loop, of an address affine in the loop's induction variable, in a block every
 * iteration runs, notes the whole run in front of the loop instead (from its first to its last address):
 * the loop is then free of calls and may vectorise. Only where every iteration runs, since a hull must
 * stay inside its object: the loop leaves only from its latch, when the variable reaches or passes a limit
 * with the same value in every iteration. */

typedef struct {
  const Cfg *cfg;
  const CfgLoop *loop;
  LLVMValueRef iv, start, step, limit; /* iv = phi [start, preheader], [iv + step, latch] */
  LLVMIntPredicate stay;                /* the loop goes on while `iv + step stay limit` */
} Counted;

static bool invariant(const Counted *c, LLVMValueRef v) {
  return !LLVMIsAInstruction(v) || !cfg_in_loop(c->cfg, c->loop, LLVMGetInstructionParent(v));
}

/* The global a load reads, when no derivative's code writes it (a grid size: fixed_global marked it). */
static bool fixed_metadata(LLVMValueRef g) {
  unsigned kind = LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(g)), FIXED, strlen(FIXED));
  size_t n;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(g, &n);
  bool fixed = false;
  for (unsigned i = 0; i < n && !fixed; i++) fixed = LLVMValueMetadataEntriesGetKind(md, i) == kind;
  if (md) LLVMDisposeValueMetadataEntries(md);
  return fixed;
}

static LLVMValueRef fixed_global_read(LLVMValueRef v) {
  LLVMValueRef g = LLVMIsALoadInst(v) && !LLVMGetVolatile(v) ? LLVMGetOperand(v, 0) : NULL;
  return g && LLVMIsAGlobalVariable(g) && fixed_metadata(g) ? g : NULL;
}

bool checkpoint_reads_fixed(LLVMValueRef fn, LLVMValueRef g) {
  /* a step, a function it calls (noting), or the step without notes its last run takes (a turn) */
  bool in_step = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, NOTING, strlen(NOTING)) ||
                 LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, MEMTYPE_PARAMS_OF, strlen(MEMTYPE_PARAMS_OF));
  return in_step && LLVMIsAGlobalVariable(g) && fixed_metadata(g);
}

/* The global every incoming value of a phi reads (a value read again in each iteration, after every call
 * of sin: the optimiser cannot tell that sin leaves it alone), or NULL. */
static LLVMValueRef phi_of_reads(LLVMValueRef phi) {
  LLVMValueRef g = NULL;
  for (unsigned i = 0, n = LLVMCountIncoming(phi); i < n; i++) {
    LLVMValueRef r = fixed_global_read(LLVMGetIncomingValue(phi, i));
    if (!r || (g && r != g)) return NULL;
    g = r;
  }
  return g;
}

/* Whether v has the same value in every iteration: defined before the loop, a read of such a global, or
 * arithmetic on such values. */
static bool fixed(const Counted *c, LLVMValueRef v, int depth) {
  if (invariant(c, v)) return true;
  if (depth > 8 || v == c->iv) return false;
  if (fixed_global_read(v) || (LLVMIsAPHINode(v) && phi_of_reads(v))) return true;
  if (!LLVMIsABinaryOperator(v) && !LLVMIsACastInst(v) && !LLVMIsAGetElementPtrInst(v)) return false;
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    if (!fixed(c, LLVMGetOperand(v, i), depth + 1)) return false;
  return true;
}

/* Whether v is iv times a constant plus something fixed in the loop, through integer arithmetic and
 * address computations (which C keeps inside one object, so that no step wraps). */
static bool affine(const Counted *c, LLVMValueRef v, int depth) {
  if (v == c->iv || fixed(c, v, 0)) return true;
  if (depth > 8 || !LLVMIsAInstruction(v)) return false;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd:
  case LLVMSub: return affine(c, LLVMGetOperand(v, 0), depth + 1) && affine(c, LLVMGetOperand(v, 1), depth + 1);
  case LLVMMul:
  case LLVMShl:
    return (affine(c, LLVMGetOperand(v, 0), depth + 1) && fixed(c, LLVMGetOperand(v, 1), 0)) ||
           (LLVMGetInstructionOpcode(v) == LLVMMul && fixed(c, LLVMGetOperand(v, 0), 0) &&
            affine(c, LLVMGetOperand(v, 1), depth + 1));
  case LLVMSExt:
  case LLVMZExt: return affine(c, LLVMGetOperand(v, 0), depth + 1);
  case LLVMGetElementPtr:
    for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
      if (!affine(c, LLVMGetOperand(v, i), depth + 1)) return false;
    return true;
  default: return false;
  }
}

/* v (affine) where iv is `at`, built by b in front of the loop (a global's read is read there). */
static LLVMValueRef affine_at(const Counted *c, LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef at) {
  if (v == c->iv) return at;
  if (invariant(c, v)) return v;
  LLVMValueRef g = fixed_global_read(v);
  if (!g && LLVMIsAPHINode(v)) g = phi_of_reads(v);
  if (g) return LLVMBuildLoad2(b, LLVMTypeOf(v), g, "");
  LLVMValueRef x = LLVMInstructionClone(v);
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
    LLVMSetOperand(x, i, affine_at(c, b, LLVMGetOperand(v, i), at));
  LLVMInsertIntoBuilder(b, x);
  return x;
}

/* The loop's counted form, if it has one: it leaves only from its latch, when iv + step reaches the limit
 * (equality), or passes it (a step of 1 or -1 compared with <, > or their unsigned forms). */
static bool counted(const Cfg *cfg, const CfgLoop *l, Counted *c) {
  *c = (Counted){cfg, l, NULL, NULL, NULL, NULL, LLVMIntEQ};
  if (!l->preheader || !l->latch) return false;
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(l->preheader), br = LLVMGetBasicBlockTerminator(l->latch);
  if (!pt || LLVMGetNumSuccessors(pt) != 1 || !br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br)) return false;
  for (size_t b = 0; b < cfg->blocks.len; b++) { /* only the latch leaves */
    if (!l->body[b] || cfg->blocks.data[b] == l->latch) continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->blocks.data[b]);
    for (unsigned i = 0, k = t ? LLVMGetNumSuccessors(t) : 0; i < k; i++)
      if (!cfg_in_loop(cfg, l, LLVMGetSuccessor(t, i))) return false;
  }
  bool stay_on_true = cfg_in_loop(cfg, l, LLVMGetSuccessor(br, 0));
  LLVMValueRef cmp = LLVMGetCondition(br);
  if (stay_on_true == cfg_in_loop(cfg, l, LLVMGetSuccessor(br, 1)) || !LLVMIsAICmpInst(cmp)) return false;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(l->header); phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    if (!ir_is_int(LLVMTypeOf(phi)) || LLVMCountIncoming(phi) != 2) continue;
    LLVMValueRef init = NULL, next = NULL;
    for (unsigned i = 0; i < 2; i++) {
      if (LLVMGetIncomingBlock(phi, i) == l->preheader) init = LLVMGetIncomingValue(phi, i);
      if (LLVMGetIncomingBlock(phi, i) == l->latch) next = LLVMGetIncomingValue(phi, i);
    }
    if (!init || !next || !LLVMIsAInstruction(next) || LLVMGetInstructionOpcode(next) != LLVMAdd) continue;
    LLVMValueRef step = LLVMGetOperand(next, 0) == phi ? LLVMGetOperand(next, 1) : LLVMGetOperand(next, 0);
    if (!LLVMIsAConstantInt(step) || !LLVMConstIntGetSExtValue(step)) continue;
    long long s = LLVMConstIntGetSExtValue(step);
    for (int side = 0; side < 2; side++) {
      if (LLVMGetOperand(cmp, (unsigned)side) != next) continue;
      LLVMIntPredicate p = LLVMGetICmpPredicate(cmp); /* as `next p limit` */
      if (side) p = ir_icmp_swapped(p);
      bool ok = stay_on_true ? p == LLVMIntNE || ((p == LLVMIntSLT || p == LLVMIntULT) && s == 1) ||
                                   ((p == LLVMIntSGT || p == LLVMIntUGT) && s == -1)
                             : p == LLVMIntEQ;
      *c = (Counted){cfg, l, phi, init, step, LLVMGetOperand(cmp, (unsigned)!side), stay_on_true ? p : LLVMIntNE};
      if (ok && fixed(c, c->limit, 0) && fixed(c, init, 0)) return true;
    }
  }
  return false;
}

/* Moves the note `call` (its address argument at `addr_arg`, its size after it) in front of its innermost
 * loop when it can. */
static void hoist_note(LLVMContextRef ctx, const Cfg *cfg, const CfgLoopList *loops, LLVMValueRef call, unsigned addr_arg) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
  const CfgLoop *l = NULL;
  size_t least = (size_t)-1;
  for (size_t i = 0; i < loops->len; i++) {
    if (!cfg_in_loop(cfg, &loops->data[i], bb)) continue;
    size_t n = 0;
    for (size_t b = 0; b < cfg->blocks.len; b++) n += loops->data[i].body[b];
    if (n < least) least = n, l = &loops->data[i];
  }
  Counted c;
  LLVMValueRef addr = LLVMGetArgOperand(call, addr_arg), size = LLVMGetArgOperand(call, addr_arg + 1);
  if (!l || !counted(cfg, l, &c) || !invariant(&c, size) || !affine(&c, addr, 0) ||
      !cfg_every_iteration(cfg, l->body, l->header, l->latch, bb))
    return;
  for (unsigned i = 0; i < addr_arg; i++) /* the site, the thread number, the base: fixed in the loop */
    if (!invariant(&c, LLVMGetArgOperand(call, i))) return;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(l->preheader));
  /* the first and last iterations' (the loop runs once at least: its preheader leads only into it) */
  LLVMValueRef limit = affine_at(&c, b, c.limit, NULL), first = affine_at(&c, b, c.start, NULL), last;
  if (c.stay == LLVMIntNE) { /* leaves when iv + step == limit */
    last = LLVMBuildSub(b, limit, c.step, "");
  } else { /* goes on while iv + 1 < limit (or iv - 1 > limit): from first to limit -+ 1, at least once */
    bool up = c.stay == LLVMIntSLT || c.stay == LLVMIntULT, sign = c.stay == LLVMIntSLT || c.stay == LLVMIntSGT;
    LLVMValueRef edge = up ? LLVMBuildSub(b, limit, LLVMConstInt(LLVMTypeOf(limit), 1, 0), "")
                           : LLVMBuildAdd(b, limit, LLVMConstInt(LLVMTypeOf(limit), 1, 0), "");
    LLVMValueRef mm[2] = {first, edge};
    LLVMTypeRef it = LLVMTypeOf(limit);
    last = ir_call_intrinsic(b, up ? (sign ? "llvm.smax" : "llvm.umax") : (sign ? "llvm.smin" : "llvm.umin"), &it, 1, mm, 2);
  }
  LLVMValueRef a0 = LLVMBuildPtrToInt(b, affine_at(&c, b, addr, first), i64, "");
  LLVMValueRef a1 = LLVMBuildPtrToInt(b, affine_at(&c, b, addr, last), i64, "");
  LLVMValueRef ab[2] = {a0, a1};
  LLVMValueRef lo = ir_call_intrinsic(b, "llvm.umin", &i64, 1, ab, 2), hi = ir_call_intrinsic(b, "llvm.umax", &i64, 1, ab, 2);
  LLVMValueRef bytes = LLVMBuildAdd(b, LLVMBuildSub(b, hi, lo, ""), LLVMBuildIntCast2(b, size, i64, 0, ""), "");
  LLVMValueRef from = LLVMBuildIntToPtr(b, lo, LLVMTypeOf(addr), "");
  bytes = LLVMBuildIntCast2(b, bytes, LLVMTypeOf(size), 0, "");
  LLVMInstructionRemoveFromParent(call);
  LLVMInsertIntoBuilder(b, call);
  LLVMSetOperand(call, addr_arg, from);
  LLVMSetOperand(call, addr_arg + 1, bytes);
  LLVMDisposeBuilder(b);
}

static const char *const note_names[4] = {"__parad_rt_ckpt_note", "__parad_rt_ckpt_note_load",
                                          "__parad_rt_ckpt_note_team", "__parad_rt_ckpt_note_load_team"};

bool checkpoint_is_note(LLVMValueRef call) {
  const char *name = ir_is_call(call) ? ir_called_name(call) : "";
  for (int k = 0; k < 4; k++)
    if (!strcmp(name, note_names[k])) return true;
  return false;
}

void checkpoint_drop_own_notes(LLVMModuleRef m) {
  for (int k = 0; k < 4; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, note_names[k]);
    ValueList own = {0};
    for (LLVMUseRef u = f ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!ir_is_call(call)) continue;
      /* the noted object's base: second, third in a team's note (after the thread number) */
      LLVMValueRef base = ir_address_base(LLVMGetArgOperand(call, k >= 2 ? 2 : 1));
      if (LLVMIsAAllocaInst(base) && fn_of(base) == fn_of(call)) vec_push(&own, call);
    }
    for (size_t i = 0; i < own.len; i++) LLVMInstructionEraseFromParent(own.data[i]);
    vec_free(&own);
  }
}

void checkpoint_lower_notes(LLVMModuleRef m) {
  const char *const *names = note_names;
  /* the loops' notes at once, function by function */
  ValueList fns = {0};
  ValueMap seen;
  vmap_init(&seen);
  for (int k = 0; k < 4; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, names[k]);
    for (LLVMUseRef u = f ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u), fn = ir_is_call(call) ? fn_of(call) : NULL;
      if (!fn || vmap_has(&seen, fn)) continue;
      vmap_put(&seen, fn, fn);
      vec_push(&fns, fn);
    }
  }
  vmap_free(&seen);
  for (size_t i = 0; i < fns.len; i++) {
    Cfg cfg;
    cfg_build(fns.data[i], &cfg);
    CfgLoopList loops = {0};
    cfg_natural_loops(&cfg, &loops);
    ValueList calls = {0};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fns.data[i]); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef x = LLVMGetFirstInstruction(bb); x; x = LLVMGetNextInstruction(x))
        if (ir_is_call(x) && !strncmp(ir_called_name(x), "__parad_rt_ckpt_note", 20)) vec_push(&calls, x);
    for (size_t k = 0; k < calls.len; k++)
      hoist_note(LLVMGetModuleContext(m), &cfg, &loops, calls.data[k], strstr(ir_called_name(calls.data[k]), "team") ? 3 : 2);
    vec_free(&calls);
    for (size_t k = 0; k < loops.len; k++) free(loops.data[k].body);
    vec_free(&loops);
    cfg_free(&cfg);
  }
  vec_free(&fns);
  for (int k = 0; k < 4; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, names[k]);
    if (!f) continue;
    ValueList calls = {0};
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
      if (ir_is_call(LLVMGetUser(u))) vec_push(&calls, LLVMGetUser(u));
    for (size_t i = 0; i < calls.len; i++) expand_note(LLVMGetModuleContext(m), calls.data[i], k >= 2);
    vec_free(&calls);
  }
}

static LLVMValueRef new_site(Ck *ck) {
  LLVMTypeRef t = LLVMArrayType2(ck->i64, SITE_WORDS * (ck->team ? TEAM_SLOTS : 1));
  LLVMValueRef site = LLVMAddGlobal(ck->m, t, "ckpt.site");
  LLVMSetLinkage(site, LLVMInternalLinkage);
  LLVMSetInitializer(site, LLVMConstNull(t));
  LLVMSetAlignment(site, 8);
  /* each thread's own: threads of a parallel region may run the same checkpointed loop at once */
  LLVMSetThreadLocal(site, 1);
  return site;
}

/* In a step that runs parallel regions, fn's thread number, got once where fn starts. */
static LLVMValueRef thread_number(Ck *ck, LLVMValueRef fn) {
  if (vmap_has(&ck->gtids, fn)) return vmap_get(&ck->gtids, fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
  LLVMValueRef null = LLVMConstNull(ck->ptr);
  LLVMValueRef gtid = ir_call_named(b, "__kmpc_global_thread_num", LLVMFunctionType(ck->i32, &ck->ptr, 1, 0), &null, 1);
  LLVMDisposeBuilder(b);
  vmap_put(&ck->gtids, fn, gtid);
  return gtid;
}

static void note(Ck *ck, LLVMValueRef at, bool store, LLVMValueRef addr, LLVMValueRef size) {
  LLVMValueRef base = ir_address_base(addr);
  if (!store && LLVMIsAGlobalVariable(base) && LLVMIsGlobalConstant(base)) return; /* never changes (read-only) */
  LLVMValueRef site = new_site(ck);
  LLVMValueRef gtid = ck->team ? thread_number(ck, fn_of(at)) : NULL;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderBefore(b, at);
  LLVMValueRef args[5] = {site, ir_address_base(addr), addr, LLVMBuildIntCast2(b, size, ck->i64, 0, "")};
  LLVMTypeRef params[5] = {ck->ptr, ck->ptr, ck->ptr, ck->i64};
  if (!ir_is_ptr(LLVMTypeOf(args[1]))) args[1] = addr;
  const char *name = store ? "__parad_rt_ckpt_note" : "__parad_rt_ckpt_note_load";
  if (gtid) { /* (site, thread, base, address, size) */
    memmove(args + 2, args + 1, 3 * sizeof *args);
    memmove(params + 2, params + 1, 3 * sizeof *params);
    args[1] = gtid, params[1] = ck->i32;
    name = store ? "__parad_rt_ckpt_note_team" : "__parad_rt_ckpt_note_load_team";
  }
  LLVMValueRef call = ir_call_named(b, name, LLVMFunctionType(ck->void_t, params, gtid ? 5 : 4, 0), args, gtid ? 5 : 4);
  LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(at));
  LLVMDisposeBuilder(b);
  /* for the optimiser: reads the program's memory (the bytes a store overwrites, for the snapshots), writes
     only the runtime's own, keeps no pointer */
  LLVMValueRef decl = ir_called_function(call);
  if (!ir_fn_has_attr(decl, "nounwind")) {
    const unsigned read_all_write_inaccessible = 1 | 3 << 2 | 1 << 4; /* MemoryEffects: arg, inaccessible, other */
    LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("memory"), read_all_write_inaccessible));
    LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("nounwind"), 0));
    LLVMAddAttributeAtIndex(decl, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("willreturn"), 0));
    for (unsigned i = 1; i <= (gtid ? 4u : 3u); i++)
      if (ir_is_ptr(LLVMTypeOf(args[i - 1])))
        LLVMAddAttributeAtIndex(decl, i, LLVMCreateEnumAttribute(ck->c, ir_attr_kind("nocapture"), 0));
  }
}

static LLVMValueRef size_of(Ck *ck, LLVMTypeRef t) { return LLVMConstInt(ck->i64, ir_type_size(ck->m, t), 0); }

/* In `own`: parameter 1 of a task's entry is its task block. */
#define OWN_TASK_BLOCK (1ull << 63)

/* An OpenMP task's block (libomp's: its header, private copies and shareds block, freed when the task has
 * run): made by the step's task allocation, or given to a task's entry. */
typedef bool (*Holds)(LLVMValueRef fn, LLVMValueRef v, uint64_t own, int depth);

/* Whether v is read back from a stack slot of fn that only ever holds pointers `holds` accepts (clang's -O0
 * spills of parameters and call results). */
static bool reloaded(LLVMValueRef fn, LLVMValueRef v, uint64_t own, int depth, Holds holds) {
  LLVMValueRef slot = LLVMIsALoadInst(v) ? LLVMGetOperand(v, 0) : NULL;
  if (!slot || !LLVMIsAAllocaInst(slot) || fn_of(slot) != fn || depth > 2) return false;
  bool stored = false;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) || ir_is_debug_intrinsic(user)) continue;
    if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != slot || !ir_is_ptr(LLVMTypeOf(LLVMGetOperand(user, 0))) ||
        !holds(fn, LLVMGetOperand(user, 0), own, depth + 1))
      return false;
    stored = true;
  }
  return stored;
}

static bool task_block_at(LLVMValueRef fn, LLVMValueRef v, uint64_t own, int depth) {
  if ((own & OWN_TASK_BLOCK) && LLVMCountParams(fn) > 1 && v == LLVMGetParam(fn, 1)) return true;
  if (ir_is_call(v)) return omp_classify(v) == OMP_TASK_ALLOC;
  return reloaded(fn, v, own, depth, task_block_at);
}

static bool task_block(LLVMValueRef fn, LLVMValueRef v, uint64_t own) { return task_block_at(fn, v, own, 0); }

/* An address based at a task's block or at its shareds block. */
static bool in_task_block(LLVMValueRef fn, LLVMValueRef base, uint64_t own) {
  return task_block(fn, base, own) || (LLVMIsALoadInst(base) && task_block(fn, ir_address_base(LLVMGetOperand(base, 0)), own));
}

/* fn's own stack and the parameters in `own` (bit i: parameter i; the loop's variables, snapshotted whole,
 * and what a parallel region is given of them) are not noted: the stack is gone when the step returns. Nor
 * are a task's block and its shareds block (whose address is the block's first word): the step's tasks
 * have run, and libomp freed them, before it returns. */
static bool own_memory_at(LLVMValueRef fn, LLVMValueRef p, uint64_t own, int depth) {
  LLVMValueRef base = ir_address_base(p);
  if (LLVMIsAAllocaInst(base) && fn_of(base) == fn) return true;
  if (in_task_block(fn, base, own)) return true;
  for (unsigned i = 0; i < 64 && i < LLVMCountParams(fn); i++)
    if ((own >> i & 1) && base == LLVMGetParam(fn, i)) return true;
  return reloaded(fn, base, own, depth, own_memory_at);
}

static bool own_memory(LLVMValueRef fn, LLVMValueRef p, uint64_t own) { return own_memory_at(fn, p, own, 0); }

static LLVMValueRef noting_copy(Ck *ck, LLVMValueRef fn, LLVMValueRef at, uint64_t own);

/* The parameters (bits) of the function `call` runs that receive fn's own memory: its arguments from
 * `first` on, the first of them parameter `first_param`. (With -g, clang's region calls a function of the
 * same parameters, which is then just as much the region.) */
static uint64_t own_arguments(LLVMValueRef fn, LLVMValueRef call, unsigned first, unsigned first_param, uint64_t own) {
  uint64_t bits = 0;
  for (unsigned a = first, n = ir_num_call_args(call); a < n && a - first + first_param < 64; a++)
    if (ir_is_ptr(LLVMTypeOf(LLVMGetArgOperand(call, a))) && own_memory(fn, LLVMGetArgOperand(call, a), own))
      bits |= 1ull << (a - first + first_param);
  return bits;
}

static void refuse(LLVMValueRef at, const char *what) {
  diag_error(at, "%s inside a loop checkpointed with " MARKER "() is not supported yet", what);
}

/* ---- MPI calls in a step ----
 * A step may communicate: every rank runs the same schedule (the runtime agrees on its choices with the
 * other ranks), and a call's buffers are noted as its loads and stores would be, a send buffer read and a
 * receive buffer written, `count` elements of its datatype's extent. Besides its buffers a call may write
 * only into the step's own memory (requests, statuses, a rank). */

enum { SEND = 1, RECEIVE = 2 }; /* a data call's sides, as bits */

typedef struct {
  const char *name;
  signed char writes[3]; /* the other pointer arguments MPI writes through, -1 for none */
  unsigned char per_rank; /* the sides holding `count` elements per rank of the communicator */
  unsigned char at_root;  /* the side only the root's call reads or writes (root: the argument before comm) */
  signed char counts, displs; /* a v form's: that side's per-rank counts and displacements, -1 for none */
  unsigned char v_side;       /* the side they describe: at the root alone where it is at_root's */
  unsigned char sends_received; /* the received buffer is sent first (Sendrecv_replace): read, then written */
  unsigned char request;        /* POSTS or COMPLETES the request writes[0] points to, or 0 */
} MpiInStep;

enum { POSTS = 1, COMPLETES = 2 };

static const MpiInStep mpi_in_steps[] = {
    {"MPI_Send", {-1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Ssend", {-1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Recv", {6, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Sendrecv", {11, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Sendrecv_replace", {8, -1, -1}, 0, 0, -1, -1, 0, 1, 0},
    {"MPI_Isend", {6, -1, -1}, 0, 0, -1, -1, 0, 0, POSTS},
    {"MPI_Irecv", {6, -1, -1}, 0, 0, -1, -1, 0, 0, POSTS},
    {"MPI_Send_init", {6, -1, -1}, 0, 0, -1, -1, 0, 0, 0}, /* persistent: the buffers noted where they are bound */
    {"MPI_Ssend_init", {6, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Rsend_init", {6, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Recv_init", {6, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Start", {0, -1, -1}, 0, 0, -1, -1, 0, 0, POSTS},
    {"MPI_Startall", {1, -1, -1}, 0, 0, -1, -1, 0, 0, POSTS},
    {"MPI_Request_free", {0, -1, -1}, 0, 0, -1, -1, 0, 0, COMPLETES},
    {"MPI_Bcast", {-1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Reduce", {-1, -1, -1}, 0, RECEIVE, -1, -1, 0, 0, 0},
    {"MPI_Allreduce", {-1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Scan", {-1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Exscan", {-1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Reduce_scatter_block", {-1, -1, -1}, SEND, 0, -1, -1, 0, 0, 0},
    {"MPI_Gather", {-1, -1, -1}, RECEIVE, RECEIVE, -1, -1, 0, 0, 0},
    {"MPI_Gatherv", {-1, -1, -1}, 0, RECEIVE, 4, 5, RECEIVE, 0, 0},
    {"MPI_Scatter", {-1, -1, -1}, SEND, SEND, -1, -1, 0, 0, 0},
    {"MPI_Scatterv", {-1, -1, -1}, 0, SEND, 1, 2, SEND, 0, 0},
    {"MPI_Allgather", {-1, -1, -1}, RECEIVE, 0, -1, -1, 0, 0, 0},
    {"MPI_Allgatherv", {-1, -1, -1}, 0, 0, 4, 5, RECEIVE, 0, 0},
    {"MPI_Alltoall", {-1, -1, -1}, SEND | RECEIVE, 0, -1, -1, 0, 0, 0},
    {"MPI_Wait", {0, 1, -1}, 0, 0, -1, -1, 0, 0, COMPLETES},
    {"MPI_Waitall", {1, 2, -1}, 0, 0, -1, -1, 0, 0, COMPLETES},
    {"MPI_Waitany", {1, 2, 3}, 0, 0, -1, -1, 0, 0, COMPLETES},
    {"MPI_Test", {0, 1, 2}, 0, 0, -1, -1, 0, 0, COMPLETES},
    {"MPI_Testall", {1, 2, 3}, 0, 0, -1, -1, 0, 0, COMPLETES},
    {"MPI_Probe", {3, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Iprobe", {3, 4, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Get_count", {2, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Barrier", {-1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Comm_rank", {1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Comm_size", {1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
    {"MPI_Wtime", {-1, -1, -1}, 0, 0, -1, -1, 0, 0, 0},
};

/* Calls MPI's query `name`(handle, outs pointers) before `call`; what it wrote through the last pointer. */
static LLVMValueRef mpi_ask(Ck *ck, LLVMBuilderRef b, LLVMValueRef call, const char *name, LLVMValueRef handle,
                            LLVMTypeRef type, unsigned outs) {
  LLVMValueRef args[3] = {handle}, slot = NULL;
  LLVMTypeRef params[3] = {LLVMTypeOf(handle)};
  for (unsigned i = 1; i <= outs; i++) {
    args[i] = slot = ir_entry_alloca(fn_of(call), type, "mpi.asked");
    params[i] = ck->ptr;
  }
  LLVMValueRef q = ir_call_named(b, name, LLVMFunctionType(ck->i32, params, outs + 1, 0), args, outs + 1);
  LLVMInstructionSetDebugLoc(q, LLVMInstructionGetDebugLoc(call));
  return LLVMBuildLoad2(b, type, slot, "");
}

/* Notes one side of a data call: its buffer, of `count` (the argument before the datatype's) elements of the
 * datatype's extent, times the communicator's size for a per-rank side, or the end of the furthest rank's
 * elements for a v form's; at the root only for a root's side (elsewhere its arguments may be anything, the
 * datatype MPI_DATATYPE_NULL, whose extent MPI would refuse: the other side's is asked there instead).
 * Noted as read or as written, per `reads`. */
static void note_mpi_side(Ck *ck, LLVMValueRef call, const MpiCall *c, const MpiInStep *m, int side, bool reads,
                          uint64_t own) {
  int buf = side == SEND ? c->send_buf : c->recv_buf, type = side == SEND ? c->send_type : c->recv_type;
  int other = side == SEND ? c->recv_type : c->send_type;
  if (buf < 0 || type < 1) return;
  LLVMValueRef p = LLVMGetArgOperand(call, (unsigned)buf), t = LLVMGetArgOperand(call, (unsigned)type);
  if (mpi_not_memory(p) || own_memory(fn_of(call), p, own)) return;
  unsigned n = ir_num_call_args(call);
  LLVMValueRef comm = LLVMGetArgOperand(call, n - 1), at_root = NULL, ranks = NULL, elements;
  bool v = m->counts >= 0 && (m->v_side & side);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderBefore(b, call);
  if (m->at_root & side) {
    LLVMValueRef rank = mpi_ask(ck, b, call, "MPI_Comm_rank", comm, ck->i32, 1);
    LLVMValueRef root = LLVMBuildIntCast2(b, LLVMGetArgOperand(call, n - 2), ck->i32, 1, "");
    at_root = LLVMBuildICmp(b, LLVMIntEQ, rank, root, "");
    p = LLVMBuildSelect(b, at_root, p, LLVMConstNull(LLVMTypeOf(p)), "");
    if (other >= 1) t = LLVMBuildSelect(b, at_root, t, LLVMGetArgOperand(call, (unsigned)other), "");
  }
  if ((m->per_rank & side) || v)
    ranks = LLVMBuildSExt(b, mpi_ask(ck, b, call, "MPI_Comm_size", comm, ck->i32, 1), ck->i64, "");
  if (v) { /* max over the ranks of displs[r] + counts[r], no rank at all but at the root */
    LLVMValueRef sa[3] = {LLVMGetArgOperand(call, (unsigned)m->counts), LLVMGetArgOperand(call, (unsigned)m->displs),
                          at_root ? LLVMBuildSelect(b, at_root, ranks, LLVMConstInt(ck->i64, 0, 0), "") : ranks};
    LLVMTypeRef sp[3] = {ck->ptr, ck->ptr, ck->i64};
    elements = ir_call_named(b, "__parad_rt_ckpt_span", LLVMFunctionType(ck->i64, sp, 3, 0), sa, 3);
  } else {
    elements = LLVMBuildSExt(b, LLVMGetArgOperand(call, (unsigned)type - 1), ck->i64, "");
    if (ranks) elements = LLVMBuildMul(b, elements, ranks, "");
  }
  LLVMValueRef extent = mpi_ask(ck, b, call, "MPI_Type_get_extent", t, ck->i64, 2);
  LLVMValueRef bytes = LLVMBuildMul(b, elements, extent, "");
  LLVMDisposeBuilder(b);
  note(ck, call, !reads, p, bytes);
}

/* Whether the persistent requests MPI_Start(all) `call` runs are bound in fn, by an MPI_*_init into the
 * same local of fn: the init's notes of the buffers then cover what the start sends and receives. A request
 * bound before the loop, or by another function, has buffers no note of this step saw. */
static bool bound_here(LLVMValueRef fn, LLVMValueRef call) {
  LLVMValueRef base = ir_address_base(LLVMGetArgOperand(call, strcmp(ir_called_name(call), "MPI_Start") ? 1 : 0));
  if (!LLVMIsAAllocaInst(base) || fn_of(base) != fn) return false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      const char *name = ir_is_call(i) ? ir_called_name(i) : "";
      size_t n = strlen(name);
      if (!strncmp(name, "MPI_", 4) && n > 5 && !strcmp(name + n - 5, "_init") && ir_num_call_args(i) == 7 &&
          ir_address_base(LLVMGetArgOperand(i, 6)) == base)
        return true;
    }
  return false;
}

/* ---- requests a step leaves pending ----
 * A step is run again from a snapshot in the reverse sweep: a request it completes must have been posted
 * by that run, and a request it posts must be complete when it returns. One posted before the loop, or
 * by the step before (a receive posted again as a step ends, waited for as the next starts), is a request
 * the run again would wait for a second time, or never post: the program itself went wrong (the loop's
 * variables are copies while it runs, and MPI wrote into the variable, not the copy), and its derivative
 * crashed in MPI. */

/* The request argument of a call that `role`s one (POSTS, COMPLETES), else -1; calls of no row are refused
 * in a step anyway (note_mpi). */
static int request_argument(LLVMValueRef call, int role) {
  const char *name = ir_called_name(call);
  for (size_t i = 0; i < sizeof mpi_in_steps / sizeof mpi_in_steps[0]; i++)
    if (!strcmp(name, mpi_in_steps[i].name)) return mpi_in_steps[i].request == role ? mpi_in_steps[i].writes[0] : -1;
  return -1;
}

/* What the request variable of such a call is (a local, or a variable of the loop). */
static LLVMValueRef request_base(LLVMValueRef call, int role) {
  return ir_address_base(LLVMGetArgOperand(call, (unsigned)request_argument(call, role)));
}

/* Whether `to` can run after `from` in one run of the step (whose back edges return). */
static bool runs_after(LLVMValueRef from, LLVMValueRef to) {
  LLVMBasicBlockRef a = LLVMGetInstructionParent(from), b = LLVMGetInstructionParent(to);
  for (LLVMValueRef i = LLVMGetNextInstruction(from); i && a == b; i = LLVMGetNextInstruction(i))
    if (i == to) return true;
  ValueList todo = {0};
  ValueMap seen;
  vmap_init(&seen);
  vec_push(&todo, LLVMBasicBlockAsValue(a));
  bool found = false;
  while (todo.len && !found) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(LLVMValueAsBasicBlock(todo.data[--todo.len]));
    for (unsigned s = 0, n = t ? LLVMGetNumSuccessors(t) : 0; s < n && !found; s++) {
      LLVMBasicBlockRef next = LLVMGetSuccessor(t, s);
      found = next == b;
      if (vmap_has(&seen, next)) continue;
      vmap_put(&seen, next, next);
      vec_push(&todo, LLVMBasicBlockAsValue(next));
    }
  }
  vmap_free(&seen);
  vec_free(&todo);
  return found;
}

/* Whether two request variables may hold one request: the same, or a handle copied from one to the other
 * (`rr[0] = rq`); copies: pairs of bases, from and to. */
static bool same_requests(const ValueList *copies, LLVMValueRef a, LLVMValueRef b) {
  if (a == b) return true;
  for (size_t k = 0; k + 1 < copies->len; k += 2)
    if ((copies->data[k] == a && copies->data[k + 1] == b) || (copies->data[k] == b && copies->data[k + 1] == a)) return true;
  return false;
}

static void requests_within_step(LLVMValueRef step) {
  ValueList posts = {0}, completions = {0}, handed = {0}; /* handed: request bases passed to other functions */
  ValueList copies = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(step); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAStoreInst(i) && LLVMIsALoadInst(LLVMGetOperand(i, 0))) {
        vec_push(&copies, ir_address_base(LLVMGetOperand(LLVMGetOperand(i, 0), 0)));
        vec_push(&copies, ir_address_base(LLVMGetOperand(i, 1)));
      }
      if (!ir_is_call(i)) continue;
      if (request_argument(i, POSTS) >= 0) vec_push(&posts, i);
      else if (request_argument(i, COMPLETES) >= 0) vec_push(&completions, i);
      else if (strncmp(ir_called_name(i), "MPI_", 4) && strncmp(ir_called_name(i), "llvm.", 5) && !checkpoint_is_note(i))
        for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) vec_push(&handed, ir_address_base(LLVMGetArgOperand(i, a)));
    }
  char what[300];
  for (size_t k = 0; k < completions.len; k++) {
    LLVMValueRef c = completions.data[k], base = request_base(c, COMPLETES);
    bool posted = ir_list_has(&handed, base);
    for (size_t j = 0; j < posts.len && !posted; j++)
      posted = same_requests(&copies, request_base(posts.data[j], POSTS), base) && runs_after(posts.data[j], c);
    if (posted) continue;
    snprintf(what, sizeof what, "%s of a request posted before the step (before the loop, or by the step before: "
                                "each step must post and complete its own requests)", ir_called_name(c));
    refuse(c, what);
  }
  for (size_t j = 0; j < posts.len; j++) {
    LLVMValueRef p = posts.data[j], base = request_base(p, POSTS);
    bool completed = ir_list_has(&handed, base);
    for (size_t k = 0; k < completions.len && !completed; k++)
      completed = same_requests(&copies, request_base(completions.data[k], COMPLETES), base) && runs_after(p, completions.data[k]);
    if (completed) continue;
    snprintf(what, sizeof what, "%s of a request the step leaves pending as it ends (each step must complete the "
                                "requests it posts)", ir_called_name(p));
    refuse(p, what);
  }
  vec_free(&posts);
  vec_free(&completions);
  vec_free(&handed);
  vec_free(&copies);
}

static void note_mpi(Ck *ck, LLVMValueRef fn, LLVMValueRef call, uint64_t own) {
  const char *name = ir_called_name(call);
  const MpiCall *c = mpi_call_of(call);
  char what[400];
  if (c && c->kind == MPI_CALL_RELEASE) return; /* writes the program's handle, as it did when it was inactive */
  for (size_t i = 0; c && i < sizeof mpi_in_steps / sizeof mpi_in_steps[0]; i++) {
    const MpiInStep *m = &mpi_in_steps[i];
    if (strcmp(name, m->name)) continue;
    for (int k = 0; k < 3; k++) {
      int w = m->writes[k];
      if (w < 0 || (unsigned)w >= ir_num_call_args(call)) continue;
      LLVMValueRef p = LLVMGetArgOperand(call, (unsigned)w);
      if (!mpi_not_memory(p) && !own_memory(fn, p, own)) {
        snprintf(what, sizeof what, "%s writing a request, status or result into memory other than the step's own "
                                    "local variables", name);
        refuse(call, what);
        return;
      }
    }
    if (!strncmp(name, "MPI_Start", 9) && !bound_here(fn, call)) {
      snprintf(what, sizeof what, "%s of a persistent request not bound in the loop's body (by an MPI_*_init of the "
                                  "step, into a local variable of it; one bound before the loop is not, and the buffers "
                                  "it binds would not be noted): bind and free the request in the body", name);
      refuse(call, what);
      return;
    }
    if (c->kind != MPI_CALL_DATA) return;
    note_mpi_side(ck, call, c, m, m->sends_received ? RECEIVE : SEND, true, own); /* what is sent, as it is read */
    note_mpi_side(ck, call, c, m, RECEIVE, false, own);
    return;
  }
  snprintf(what, sizeof what, "%s (a step may call MPI_Send, Ssend, Recv, Sendrecv(_replace), Isend, Irecv, Bcast, "
                              "Reduce, Allreduce, Scan, Exscan, Reduce_scatter_block, Gather(v), Scatter(v), "
                              "Allgather(v), Alltoall, Send_init, Ssend_init, Rsend_init, Recv_init, Start(all), "
                              "Request_free, Wait, Waitall, Waitany, Test, Testall, Probe, Iprobe, Get_count, "
                              "Barrier, Comm_rank, Comm_size and Wtime)", name);
  refuse(call, what);
}

/* A function a region's team or a task runs (argument `arg` of the runtime call), replaced by its noting
 * copy. The blocks a step allocates are told apart by the thread that runs the step: such a function may
 * not allocate. */
static void note_team_function(Ck *ck, LLVMValueRef call, LLVMValueRef f, unsigned arg, uint64_t own, const char *what) {
  char message[100];
  if (!f) {
    snprintf(message, sizeof message, "%s Parad cannot see", what);
    refuse(call, message);
    return;
  }
  ValueMap seen;
  vmap_init(&seen);
  bool allocates = checkpoint_reaches(f, checkpoint_allocation, &seen);
  vmap_free(&seen);
  if (allocates) {
    snprintf(message, sizeof message, "%s that allocates or frees memory", what);
    refuse(call, message);
    return;
  }
  LLVMValueRef copy = noting_copy(ck, f, call, own);
  if (copy) LLVMSetOperand(call, arg, copy);
}

/* A call through a function pointer: a test of the pointer against each function of the module it may
 * hold, each branch calling that function's noting copy, and a stop in the runtime for any other (one of
 * another module or a library's, whose writes no snapshot would keep). */
static void dispatch_indirect(Ck *ck, LLVMValueRef fn, LLVMValueRef call, uint64_t own) {
  static const char *const on_the_stack[] = {"inalloca", "preallocated"};
  unsigned n = ir_num_call_args(call);
  for (unsigned i = 0; i < n; i++)
    for (int k = 0; k < 2; k++)
      if (LLVMGetCallSiteEnumAttribute(call, i + 1, ir_attr_kind(on_the_stack[k]))) {
        refuse(call, "a call through a function pointer that passes an argument in the caller's stack frame");
        return;
      }
  /* functions of the module: their noting copies; library functions with a derivative rule that take
     no pointer write nothing: called as they are */
  LLVMTypeRef fty = LLVMGetCalledFunctionType(call);
  bool pointers = false;
  LLVMTypeRef *params = xcalloc(LLVMCountParamTypes(fty) + 1, sizeof *params);
  LLVMGetParamTypes(fty, params);
  for (unsigned i = 0; i < LLVMCountParamTypes(fty); i++) pointers |= ir_is_ptr(params[i]);
  free(params);
  ValueList targets = {0}, copies = {0};
  checkpoint_indirect_targets(call, &targets);
  uint64_t passed_own = own_arguments(fn, call, 0, 0, own);
  size_t kept = 0;
  for (size_t t = 0; t < targets.len; t++) {
    LLVMValueRef target = targets.data[t], copy = target;
    if (LLVMIsDeclaration(target)) {
      if (pointers) continue; /* may write through them: stops, as an unknown function does */
    } else if (!(copy = noting_copy(ck, target, call, passed_own))) {
      goto done; /* refused there */
    }
    targets.data[kept++] = target;
    vec_push(&copies, copy);
  }
  targets.len = kept;
  LLVMValueRef callee = LLVMGetCalledValue(call), *args = xcalloc(n + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++) args[i] = LLVMGetArgOperand(call, i);
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(call);
  LLVMBasicBlockRef test = cfg_split_before(ck->c, call), here = LLVMGetInstructionParent(call);
  bool value = LLVMGetTypeKind(LLVMGetReturnType(fty)) != LLVMVoidTypeKind;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef result = value ? LLVMBuildPhi(b, LLVMGetReturnType(fty), "") : NULL;
  for (size_t t = 0; t < copies.len; t++) {
    LLVMBasicBlockRef calls = LLVMInsertBasicBlockInContext(ck->c, here, "ckpt.callee");
    LLVMBasicBlockRef next = LLVMInsertBasicBlockInContext(ck->c, here, "ckpt.callee.test");
    LLVMPositionBuilderAtEnd(b, test);
    LLVMInstructionSetDebugLoc(LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, callee, targets.data[t], ""), calls, next), loc);
    LLVMPositionBuilderAtEnd(b, calls);
    LLVMValueRef r = LLVMBuildCall2(b, fty, copies.data[t], args, n, "");
    ir_copy_call_attributes(call, r); /* a struct passed or returned in memory: byval, sret */
    LLVMInstructionSetDebugLoc(r, loc);
    LLVMInstructionSetDebugLoc(LLVMBuildBr(b, here), loc);
    if (value) LLVMAddIncoming(result, &r, &calls, 1);
    test = next;
  }
  LLVMPositionBuilderAtEnd(b, test);
  LLVMTypeRef stop_t = LLVMFunctionType(ck->void_t, &ck->ptr, 1, 0);
  LLVMValueRef stop = ir_call_named(b, "__parad_rt_ckpt_unknown_callee", stop_t, &callee, 1);
  LLVMInstructionSetDebugLoc(stop, loc);
  LLVMAddAttributeAtIndex(ir_called_function(stop), LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(ck->c, ir_attr_kind("noreturn"), 0));
  LLVMBuildUnreachable(b);
  if (value) LLVMReplaceAllUsesWith(call, result);
  LLVMInstructionEraseFromParent(call);
  LLVMDisposeBuilder(b);
  free(args);
done:
  vec_free(&targets);
  vec_free(&copies);
}

static void note_call(Ck *ck, LLVMValueRef fn, LLVMValueRef call, uint64_t own) {
  const MathRule *rule = NULL;
  CallKind kind = call_classify(call, &rule);
  const char *name = ir_called_name(call);
  unsigned n = ir_num_call_args(call);
  char what[300];
  switch (kind) {
  case CALL_DEBUG: return;
  case CALL_MEMCPY:
  case CALL_MEMSET: {
    LLVMValueRef dst = LLVMGetArgOperand(call, 0), len = LLVMGetArgOperand(call, 2);
    if (kind == CALL_MEMCPY) { /* of pointers: refused once their type is known (checkpoint_check_copies) */
      if (!own_memory(fn, LLVMGetArgOperand(call, 1), own)) note(ck, call, false, LLVMGetArgOperand(call, 1), len);
    }
    if (!own_memory(fn, dst, own)) note(ck, call, true, dst, len);
    return;
  }
  case CALL_MATH:
  case CALL_INACTIVE:
    if (call_draws_hidden_state(call)) {
      /* a recomputed step would draw other numbers than the forward run drew: the reverse sweep would
         differentiate another trajectory */
      snprintf(what, sizeof what, "a call of '%s', whose hidden state a recomputed step would draw from again "
                                  "(draw the numbers before the loop, or keep the state in a variable: rand_r)", name);
      refuse(call, what);
      return;
    }
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef a = LLVMGetArgOperand(call, i);
      if (ir_is_ptr(LLVMTypeOf(a)) && call_writes_argument(call, i) && !own_memory(fn, a, own)) {
        snprintf(what, sizeof what, "a call of '%s' that writes through a pointer into memory other than the loop's "
                                    "variables", name);
        refuse(call, what);
      }
    }
    return;
  case CALL_MODULE: {
    LLVMValueRef copy = noting_copy(ck, ir_called_function(call), call, own_arguments(fn, call, 0, 0, own));
    if (copy) LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, copy);
    return;
  }
  case CALL_ALLOC:
  case CALL_FREE: return; /* not in a region's function: refused at its fork */
  case CALL_REALLOC: { /* the runtime's (CKPT_REALLOC): while the loop's reverse sweep is to come, the old
                          block stays (a step recomputed from an earlier snapshot reads it) and the data moves */
    LLVMValueRef f = LLVMGetNamedFunction(ck->m, CKPT_REALLOC);
    if (!f) f = LLVMAddFunction(ck->m, CKPT_REALLOC, LLVMGetCalledFunctionType(call));
    LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, f);
    return;
  }
  case CALL_OMP:
    switch (omp_classify(call)) {
    case OMP_FORK: { /* the region's copy notes too; its thread numbers and what it is given of the loop's
                        variables or the step's stack are its own */
      uint64_t region_own = 3 | own_arguments(fn, call, OMP_FORK_FIRST_ARG, OMP_OUTLINED_FIRST_PARAM, own);
      note_team_function(ck, call, omp_fork_outlined(call), 2, region_own, "a parallel region");
      return;
    }
    case OMP_TASK_ALLOC: /* the task's copy notes too; its block is its own */
      note_team_function(ck, call, omp_task_entry(call), OMP_TASK_ENTRY_ARG, 3 | OWN_TASK_BLOCK, "an OpenMP task");
      return;
    case OMP_TASK_SPAWN:
    case OMP_TASK_WAIT: return; /* their dependences: the step's stack */
    case OMP_BARRIER:
    case OMP_CRITICAL:
    case OMP_END_CRITICAL:
    case OMP_REDUCE:
    case OMP_END_REDUCE:
    case OMP_SCHEDULE:
    case OMP_ORDERED: return; /* no data of the program's */
    default: refuse(call, "this OpenMP construct"); return;
    }
  case CALL_MPI: note_mpi(ck, fn, call, own); return;
  case CALL_INDIRECT: dispatch_indirect(ck, fn, call, own); return;
  case CALL_REQUEST: refuse(call, "a derivative request"); return;
  case CALL_UNKNOWN:
  default:
    snprintf(what, sizeof what, "a call of '%s', whose body Parad cannot see (what it writes could not be kept in "
                                "the snapshots),", name);
    refuse(call, what);
    return;
  }
}

/* Whether the uses of v (a global, or an address into it) only load from it, or store into it in
 * functions no derivative is made of. */
static bool only_read_by_derivatives(Ck *ck, LLVMValueRef v, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v && LLVMGetOperand(user, 0) != v &&
        !vmap_has(&ck->differentiated, fn_of(user)))
      continue;
    if ((LLVMIsAConstantExpr(user) || LLVMIsAGetElementPtrInst(user)) && LLVMGetOperand(user, 0) == v && depth < 4 &&
        only_read_by_derivatives(ck, user, depth + 1))
      continue;
    return false;
  }
  return true;
}

/* A global the steps read, whose address goes nowhere and which no function a derivative is made of
 * writes: it holds the same value in the loop's reverse sweep, and is not noted (a note would hand its
 * address to a call, after which the optimiser would have to read it again after every call in a loop). */
static bool fixed_global(Ck *ck, LLVMValueRef p) {
  LLVMValueRef g = ir_strip_pointer_casts(ir_address_base(p));
  if (!LLVMIsAGlobalVariable(g)) return false;
  checkpoint_find_differentiated(ck);
  if (!only_read_by_derivatives(ck, g, 0)) return false;
  /* marked for checkpoint_lower_notes, where a loop's read of it is fixed in the loop */
  LLVMGlobalSetMetadata(g, LLVMGetMDKindIDInContext(ck->c, FIXED, strlen(FIXED)), LLVMMDNodeInContext2(ck->c, NULL, 0));
  return true;
}

/* The blocks of fn reached from its entry without taking an exception's edge, in order, into out, but
 * those from which every path throws. The others run only while an exception is thrown or unwinds (a
 * check's `throw std::invalid_argument(...)`, a noexcept function's terminate pad, a destructor's
 * cleanup): a throw inside a derivative stops the program, and they need no notes. */
static void normal_blocks(LLVMValueRef fn, ValueList *out) {
  ValueMap seen;
  vmap_init(&seen);
  ad_body_doomed_blocks(fn, &seen); /* as if reached already: not followed */
  ValueList todo = {0};
  vec_push(&todo, LLVMBasicBlockAsValue(LLVMGetEntryBasicBlock(fn)));
  vmap_put(&seen, todo.data[0], fn);
  while (todo.len) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(LLVMValueAsBasicBlock(todo.data[--todo.len]));
    unsigned n = !t ? 0 : LLVMIsAInvokeInst(t) ? 1 : LLVMGetNumSuccessors(t);
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef s = LLVMBasicBlockAsValue(LLVMGetSuccessor(t, k));
      if (vmap_has(&seen, s)) continue;
      vmap_put(&seen, s, fn);
      vec_push(&todo, s);
    }
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    if (vmap_get(&seen, LLVMBasicBlockAsValue(bb)) == fn) vec_push(out, LLVMBasicBlockAsValue(bb));
  vec_free(&todo);
  vmap_free(&seen);
}

void checkpoint_add_notes(Ck *ck, LLVMValueRef fn, uint64_t own) {
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ck->c, NOTING, strlen(NOTING), "", 0));
  ValueList insts = {0}, blocks = {0};
  ValueMap constant_reads;
  vmap_init(&constant_reads);
  normal_blocks(fn, &blocks);
  for (size_t b = 0; b < blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMValueAsBasicBlock(blocks.data[b])); i; i = LLVMGetNextInstruction(i))
      vec_push(&insts, i);
  vec_free(&blocks);
  for (size_t k = 0; k < insts.len; k++) {
    LLVMValueRef i = insts.data[k];
    if (LLVMIsAStoreInst(i)) {
      LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1);
      if (own_memory(fn, p, own)) continue;
      if (ir_contains_ptr(LLVMTypeOf(v))) {
        refuse(i, "storing a pointer into memory other than the loop's variables (its shadow would not follow the "
                  "snapshots)");
        continue;
      }
      note(ck, i, true, p, size_of(ck, LLVMTypeOf(v)));
    } else if (LLVMIsALoadInst(i)) {
      LLVMValueRef p = LLVMGetOperand(i, 0);
      if (own_memory(fn, p, own) || fixed_global(ck, p)) continue;
      if (!LLVMIsAConstant(p)) {
        note(ck, i, false, p, size_of(ck, LLVMTypeOf(i)));
      } else if (!vmap_has(&constant_reads, p)) { /* a global's: once per call, when the function starts (a read's
                                                     note only has to come before the loop ends) */
        vmap_put(&constant_reads, p, p);
        /* in a team's function, after the thread number the notes take (made at the start on first use) */
        LLVMValueRef start = ck->team ? LLVMGetNextInstruction(thread_number(ck, fn)) : LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
        note(ck, start, false, p, size_of(ck, LLVMTypeOf(i)));
      }
    } else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i)) { /* a reduction's, say */
      LLVMValueRef p = LLVMGetOperand(i, 0);
      LLVMTypeRef t = LLVMIsAAtomicRMWInst(i) ? LLVMTypeOf(i) : LLVMTypeOf(LLVMGetOperand(i, 1));
      if (!own_memory(fn, p, own)) note(ck, i, true, p, size_of(ck, t));
    } else if (ir_is_call_site(i)) {
      note_call(ck, fn, i, own);
    }
  }
  vec_free(&insts);
  vmap_free(&constant_reads);
}

/* The copy of a function a step calls, noting its accesses (made once). */
/* One copy per step, function and set of parameters that are the step's own memory (named after them):
 * a function's copy notes in its step's mode. */
static LLVMValueRef noting_copy(Ck *ck, LLVMValueRef fn, LLVMValueRef at, uint64_t own) {
  char *name = xasprintf("%s.ckpt%d.%llx", LLVMGetValueName(fn), ck->loops, (unsigned long long)own);
  LLVMValueRef made = LLVMGetNamedFunction(ck->m, name);
  if (made && LLVMGetStringAttributeAtIndex(made, LLVMAttributeFunctionIndex, NOTING, strlen(NOTING))) {
    free(name);
    return made;
  }
  for (size_t i = 0; i < ck->copying.len; i++)
    if (ck->copying.data[i] == fn) {
      refuse(at, "a recursive call");
      free(name);
      return NULL;
    }
  ValueMap vm;
  vmap_init(&vm);
  LLVMValueRef copy = ir_clone_function(fn, name, &vm);
  vmap_free(&vm);
  free(name);
  checkpoint_give_subprogram(ck, copy, fn, LLVMGetValueName(fn));
  checkpoint_auto_join(copy, ck->family);
  /* an inner checkpointed loop, which the noting step runs as the program does */
  const char *loop_keys[3] = {LOOP, "parad-custom-augment", "parad-custom-gradient"};
  for (int k = 0; k < 3; k++)
    LLVMRemoveStringAttributeAtIndex(copy, LLVMAttributeFunctionIndex, loop_keys[k], (unsigned)strlen(loop_keys[k]));
  vec_push(&ck->copying, fn);
  checkpoint_add_notes(ck, copy, own);
  ck->copying.len--;
  return copy;
}

/* A note's base says which object its address lies in: the runtime keeps one hull per base and site,
 * and joins an access of a base to its hull whatever lies between them (one object). The base was taken
 * as the step's code stood, where a pointer kept in a local (`Grain *a = &g[ci[q]]; a->f[0] -= ...`) is a
 * load of the local; the optimiser makes it the element's address, a base of its own for each element:
 * a contact list's scatter into an array of grains found no hull of its base at each store, evicted and
 * listed one (a sort, a hash table's insert and removal): 200 times the primal. The offsets are taken
 * off again once the optimiser has run. */
void checkpoint_rebase_notes(LLVMModuleRef m) {
  static const char *const names[] = {"__parad_rt_ckpt_note", "__parad_rt_ckpt_note_load", "__parad_rt_ckpt_note_team",
                                      "__parad_rt_ckpt_note_load_team"};
  for (int k = 0; k < 4; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, names[k]);
    unsigned at = k < 2 ? 1 : 2; /* (site, [thread,] base, address, size) */
    for (LLVMUseRef u = f ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!ir_is_call(call) || ir_called_function(call) != f) continue;
      LLVMValueRef base = LLVMGetArgOperand(call, at), object = ir_address_base(base);
      if (object != base && ir_is_ptr(LLVMTypeOf(object))) LLVMSetOperand(call, at, object);
    }
  }
}

int checkpoint_check_copies(LLVMModuleRef m) {
  int before = diag_error_count();
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (!LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, NOTING, strlen(NOTING))) continue;
    const char *family = checkpoint_auto_family(f);
    if (family && checkpoint_auto_refused(m, family)) continue;
    if (family) diag_capture_begin(true); /* a twin's: only tried */
    /* a step's parameters are the loop's variables (and its code), whose shadows the runtime keeps */
    unsigned len, nown = 0;
    LLVMAttributeRef step = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, STEP, strlen(STEP));
    if (step) nown = (unsigned)atoi(LLVMGetStringAttributeValue(step, &len));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        const MathRule *rule;
        if (!ir_is_call(i) || call_classify(i, &rule) != CALL_MEMCPY) continue;
        LLVMValueRef to = ir_address_base(LLVMGetArgOperand(i, 0));
        bool own = LLVMIsAAllocaInst(to) || in_task_block(f, to, 0);
        for (unsigned p = 0; p < nown && p < LLVMCountParams(f) && !own; p++) own = to == LLVMGetParam(f, p);
        CopyPointers p = own ? COPY_NO_POINTERS : memtype_copy_pointers(i);
        if (p == COPY_POINTERS)
          refuse(i, "copying memory that holds pointers (their shadows would not follow the snapshots)");
        else if (p == COPY_LAYOUT_UNKNOWN)
          refuse(i, "copying memory of mixed data whose layout is not known here, which may hold pointers (their "
                    "shadows would not follow the snapshots; optimised builds usually see the layout)");
      }
    char *kept = family ? diag_capture_end() : NULL;
    if (kept && *kept) checkpoint_auto_refuse(m, family, kept);
    free(kept);
  }
  return diag_error_count() - before;
}

static bool fork(LLVMValueRef call, CallKind k) { return k == CALL_OMP && omp_classify(call) == OMP_FORK; }

int checkpoint_note_steps(LLVMModuleRef m) {
  int before = diag_error_count();
  Ck ck;
  bool found = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !found; f = LLVMGetNextFunction(f))
    found = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, STEP, strlen(STEP)) != NULL;
  if (!found) return 0;
  checkpoint_begin(&ck, m);
  ValueList steps = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, STEP, strlen(STEP))) vec_push(&steps, f);
  for (size_t i = 0; i < steps.len; i++) {
    unsigned len;
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(steps.data[i], LLVMAttributeFunctionIndex, STEP, strlen(STEP));
    unsigned nown = (unsigned)atoi(LLVMGetStringAttributeValue(a, &len));
    ValueMap seen;
    vmap_init(&seen);
    ck.team = checkpoint_reaches(steps.data[i], fork, &seen);
    vmap_free(&seen);
    requests_within_step(steps.data[i]);
    ck.loops = (int)i; /* the copies' names */
    ck.family = checkpoint_auto_family(steps.data[i]);
    if (!ck.family) {
      checkpoint_add_notes(&ck, steps.data[i], nown >= 64 ? ~0ull : (1ull << nown) - 1);
      continue;
    }
    if (checkpoint_auto_refused(m, ck.family)) continue;
    diag_capture_begin(true); /* a twin's step: only tried */
    checkpoint_add_notes(&ck, steps.data[i], nown >= 64 ? ~0ull : (1ull << nown) - 1);
    char *kept = diag_capture_end();
    if (*kept) checkpoint_auto_refuse(m, ck.family, kept);
    free(kept);
  }
  vec_free(&steps);
  checkpoint_end(&ck);
  return diag_error_count() - before;
}
