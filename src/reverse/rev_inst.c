/* Arithmetic, casts, aggregates, select and phis in both sweeps: the forward sweep copies them (and
 * computes the shadows of pointers), the reverse sweep propagates adjoints to their operands. */
#include "reverse/rev_internal.h"

#include <stdlib.h>

#include "analysis/nonfinite.h"

/* ---- the forward sweep ---- */

static LLVMValueRef insert_path(RevGen *g, LLVMValueRef agg, LLVMValueRef v, const unsigned *idx, unsigned n) {
  if (n == 1) return LLVMBuildInsertValue(g->b, agg, v, idx[0], "");
  LLVMValueRef inner = LLVMBuildExtractValue(g->b, agg, idx[0], "");
  return LLVMBuildInsertValue(g->b, agg, insert_path(g, inner, v, idx + 1, n - 1), idx[0], "");
}

static LLVMValueRef extract_path(RevGen *g, LLVMValueRef agg, const unsigned *idx, unsigned n) {
  for (unsigned i = 0; i < n; i++) agg = LLVMBuildExtractValue(g->b, agg, idx[i], "");
  return agg;
}

static void phi(RevGen *g, LLVMValueRef inst) {
  size_t len;
  const char *name = LLVMGetValueName2(inst, &len);
  vmap_put(&g->vmap, inst, LLVMBuildPhi(g->b, LLVMTypeOf(inst), name));
  if (activity_shadowed(g->act, inst)) vmap_put(&g->smap, inst, LLVMBuildPhi(g->b, LLVMTypeOf(inst), "shadow"));
  vec_push(&g->phis, inst);
}

void aug_inst(RevGen *g, LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMValueRef at;
  const char *lost = activity_lost_derivative(g->act, inst, &at);
  if (lost) rev_error(g, at, "%s", lost);
  if (op == LLVMCall) {
    aug_call(g, inst);
    return;
  }
  if (aug_memory(g, inst)) return;
  switch (op) {
  case LLVMPHI: phi(g, inst); return;
  case LLVMInvoke:
  case LLVMCallBr:
  case LLVMLandingPad:
  case LLVMResume:
  case LLVMCatchSwitch:
  case LLVMCatchPad:
  case LLVMCleanupPad:
  case LLVMCatchRet:
  case LLVMCleanupRet:
    rev_error(g, inst, "cannot differentiate exception handling");
    aug_clone(g, inst);
    return;
  case LLVMVAArg:
    rev_error(g, inst, "cannot differentiate a variadic function (va_arg)");
    aug_clone(g, inst);
    return;
  case LLVMIndirectBr:
    rev_error(g, inst, "cannot differentiate a computed goto");
    aug_clone(g, inst);
    return;
  default: break;
  }
  LLVMValueRef c = aug_clone(g, inst);
  if (!activity_shadowed(g->act, inst)) return;
  /* the shadow of a pointer computed from pointers */
  switch (op) {
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
    vmap_put(&g->smap, inst, LLVMBuildPointerCast(g->b, aug_shadow(g, LLVMGetOperand(inst, 0), inst, "this cast"), g->ptr_type, ""));
    break;
  case LLVMSelect:
    vmap_put(&g->smap, inst,
             LLVMBuildSelect(g->b, LLVMGetOperand(c, 0), aug_shadow(g, LLVMGetOperand(inst, 1), inst, "this pointer select"),
                             aug_shadow(g, LLVMGetOperand(inst, 2), inst, "this pointer select"), ""));
    break;
  case LLVMFreeze: vmap_put(&g->smap, inst, aug_shadow(g, LLVMGetOperand(inst, 0), inst, "this freeze")); break;
  case LLVMExtractValue: { /* a pointer, or a struct of them, out of a struct's shadow */
    LLVMValueRef whole = LLVMGetOperand(inst, 0);
    const unsigned *idx = LLVMGetIndices(inst);
    LLVMValueRef unknown = activity_field_without_shadow(g->act, whole, idx, LLVMGetNumIndices(inst));
    if (unknown && !ir_is_ptr(LLVMTypeOf(unknown)) && LLVMGetFirstUse(inst))
      rev_error(g, inst, "cannot differentiate a pointer taken out of a struct %s in reverse mode: its shadow cannot be followed",
                ir_is_call(unknown) ? "returned through a function pointer or by a function without a body"
                : LLVMIsALoadInst(unknown) ? "loaded from memory as a whole"
                                           : "whose source is not known");
    vmap_put(&g->smap, inst, extract_path(g, aug_aggregate_shadow(g, whole), idx, LLVMGetNumIndices(inst)));
    break;
  }
  case LLVMInsertValue: {
    /* a pointer without a shadow (activity_pointer_has_shadow) leaves the field null: the field rule
       keeps what is extracted from there unshadowed */
    LLVMValueRef put = LLVMGetOperand(inst, 1), shadow = aug_aggregate_shadow(g, LLVMGetOperand(inst, 0));
    LLVMTypeRef t = LLVMTypeOf(put);
    LLVMValueRef put_shadow = ir_is_pointer_aggregate(t) ? aug_aggregate_shadow(g, put)
                              : ir_is_ptr(t) && activity_pointer_has_shadow(g->act, put) ? aug_shadow(g, put, inst, "this struct")
                                                                                        : NULL;
    if (put_shadow) shadow = insert_path(g, shadow, put_shadow, LLVMGetIndices(inst), LLVMGetNumIndices(inst));
    else if (ir_is_ptr(t)) shadow = insert_path(g, shadow, LLVMConstNull(t), LLVMGetIndices(inst), LLVMGetNumIndices(inst));
    vmap_put(&g->smap, inst, shadow);
    break;
  }
  default:
    if (!LLVMGetFirstUse(inst)) break; /* nothing needs its shadow */
    rev_error(g, inst, "cannot differentiate this pointer computation in reverse mode");
    break;
  }
}

/* ---- the reverse sweep ---- */

static bool varied(RevGen *g, LLVMValueRef v) { return activity_varied(g->act, v); }

static LLVMValueRef zero_of(LLVMValueRef v) { return LLVMConstNull(adj_type(LLVMTypeOf(v))); }

/* d carried through a partial that may be infinite (analysis/nonfinite.h): zero where d is zero; or, with
 * a factor for d, a d that may be infinite carried through a factor: zero where the factor is zero. */
static LLVMValueRef strong_zero(RevGen *g, LLVMValueRef d, LLVMValueRef carried, bool may_be_infinite) {
  return may_be_infinite ? rule_zero_where_zero(g->b, d, carried) : carried;
}

/* Shuffles send each result lane back to the operand lane it came from. */
static void shuffle_adjoint(RevGen *g, LLVMValueRef inst, LLVMValueRef d) {
  LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetOperand(inst, 1);
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(a)), lanes = LLVMGetNumMaskElements(inst);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  LLVMValueRef da = zero_of(a), db = zero_of(b);
  for (unsigned i = 0; i < lanes; i++) {
    int m = LLVMGetMaskValue(inst, i);
    if (m == LLVMGetUndefMaskElem()) continue;
    LLVMValueRef lane = LLVMBuildExtractElement(g->b, d, LLVMConstInt(i32, i, 0), "");
    LLVMValueRef *to = (unsigned)m < n ? &da : &db;
    LLVMValueRef at = LLVMConstInt(i32, (unsigned)m % n, 0);
    LLVMValueRef old = LLVMBuildExtractElement(g->b, *to, at, "");
    *to = LLVMBuildInsertElement(g->b, *to, ir_adjoint_sum(g->b, old, lane), at, "");
  }
  adj_add(g, a, da);
  adj_add(g, b, db);
}

void rev_inst(RevGen *g, LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  if (op == LLVMCall) {
    rev_call(g, inst);
    return;
  }
  if (rev_memory(g, inst)) return;
  if (!varied(g, inst) || !adj_type_of(g, inst)) return;
  LLVMValueRef d = adj_take(g, inst);
  LLVMValueRef a = LLVMGetNumOperands(inst) > 0 ? LLVMGetOperand(inst, 0) : NULL;
  LLVMValueRef b = LLVMGetNumOperands(inst) > 1 ? LLVMGetOperand(inst, 1) : NULL;
  switch (op) {
  case LLVMFAdd:
    adj_add(g, a, d);
    adj_add(g, b, d);
    return;
  case LLVMFSub:
    adj_add(g, a, d);
    if (varied(g, b)) adj_add(g, b, LLVMBuildFNeg(g->b, d, ""));
    return;
  case LLVMFMul: {
    bool steep = nonfinite_adjoint_possible(inst); /* d may be infinite: a zero factor still gives 0 */
    if (varied(g, a)) adj_add(g, a, strong_zero(g, d, strong_zero(g, rv(g, b), LLVMBuildFMul(g->b, d, rv(g, b), ""), steep), nonfinite_possible(b)));
    if (varied(g, b)) adj_add(g, b, strong_zero(g, d, strong_zero(g, rv(g, a), LLVMBuildFMul(g->b, d, rv(g, a), ""), steep), nonfinite_possible(a)));
    return;
  }
  case LLVMFDiv: { /* d(a/b) = da/b - (a/b) db/b */
    LLVMValueRef y = rv(g, b);
    /* times 1/b rather than divided by b: 1/b needs no adjoint, so it is ready early and shared by every
     * division by b; a division on the adjoint's path costs the latency of several multiplications */
    LLVMValueRef inverse = LLVMBuildFDiv(g->b, ir_const_fp(LLVMTypeOf(y), 1.0), y, "");
    LLVMValueRef db = LLVMBuildFMul(g->b, d, inverse, "");
    /* by a variable, b may be 0 (the side of a guarded choice not taken) */
    bool by_zero = !LLVMIsAConstant(b) || nonfinite_possible(a);
    if (varied(g, a)) adj_add(g, a, strong_zero(g, d, db, by_zero));
    if (varied(g, b))
      adj_add(g, b, strong_zero(g, d, LLVMBuildFNeg(g->b, LLVMBuildFMul(g->b, db, LLVMBuildFDiv(g->b, rv(g, a), y, ""), ""), ""),
                                by_zero));
    return;
  }
  case LLVMFRem: /* a rem b = a - n b, n an integer: fmod's rule */
    adj_add(g, a, d);
    if (varied(g, b)) {
      LLVMValueRef ab[2] = {rv(g, a), rv(g, b)};
      adj_add(g, b, LLVMBuildFMul(g->b, d, rule_emit_partial(g->b, rule_for_name("fmod"), 1, ab, rv(g, inst), inst), ""));
    }
    return;
  case LLVMFNeg: adj_add(g, a, LLVMBuildFNeg(g->b, d, "")); return;
  case LLVMFPExt: adj_add(g, a, LLVMBuildFPTrunc(g->b, d, adj_type(LLVMTypeOf(a)), "")); return;
  case LLVMFPTrunc: adj_add(g, a, LLVMBuildFPExt(g->b, d, adj_type(LLVMTypeOf(a)), "")); return;
  case LLVMFreeze: adj_add(g, a, d); return;
  case LLVMSelect: {
    LLVMValueRef c = rv(g, a), t = b, f = LLVMGetOperand(inst, 2), z = LLVMConstNull(LLVMTypeOf(d));
    if (varied(g, t)) adj_add(g, t, LLVMBuildSelect(g->b, c, d, z, ""));
    if (varied(g, f)) adj_add(g, f, LLVMBuildSelect(g->b, c, z, d, ""));
    return;
  }
  case LLVMExtractValue: {
    unsigned n = LLVMGetNumIndices(inst);
    adj_add(g, a, insert_path(g, zero_of(a), d, LLVMGetIndices(inst), n));
    return;
  }
  case LLVMInsertValue: {
    unsigned n = LLVMGetNumIndices(inst);
    const unsigned *idx = LLVMGetIndices(inst);
    if (varied(g, b) && adj_type_of(g, b)) adj_add(g, b, extract_path(g, d, idx, n));
    if (varied(g, a)) adj_add(g, a, insert_path(g, d, LLVMConstNull(LLVMTypeOf(b)), idx, n));
    return;
  }
  case LLVMExtractElement:
    adj_add(g, a, LLVMBuildInsertElement(g->b, zero_of(a), d, rv(g, b), ""));
    return;
  case LLVMInsertElement: {
    LLVMValueRef idx = rv(g, LLVMGetOperand(inst, 2));
    if (varied(g, b)) adj_add(g, b, LLVMBuildExtractElement(g->b, d, idx, ""));
    if (varied(g, a)) adj_add(g, a, LLVMBuildInsertElement(g->b, d, LLVMConstNull(LLVMGetElementType(LLVMTypeOf(d))), idx, ""));
    return;
  }
  case LLVMShuffleVector: shuffle_adjoint(g, inst, d); return;
  case LLVMBitCast:
  case LLVMTrunc:
  case LLVMZExt:
  case LLVMShl:
  case LLVMLShr:
  case LLVMAnd:
  case LLVMOr: rev_bits(g, inst, d); return;
  default:
    rev_error(g, inst, "cannot differentiate this instruction in reverse mode");
    return;
  }
}
