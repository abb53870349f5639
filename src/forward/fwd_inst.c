/* Tangents of arithmetic, casts, aggregates, phis, selects and returns. */
#include "forward/fwd_internal.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

/* ---- aggregates with index paths ---- */

static LLVMValueRef extract_path(FwdGen *g, LLVMValueRef agg, const unsigned *idx, unsigned n) {
  for (unsigned i = 0; i < n; i++) agg = LLVMBuildExtractValue(g->b, agg, idx[i], "");
  return agg;
}

static LLVMValueRef insert_path(FwdGen *g, LLVMValueRef agg, LLVMValueRef v, const unsigned *idx, unsigned n) {
  if (n == 1) return LLVMBuildInsertValue(g->b, agg, v, idx[0], "");
  LLVMValueRef inner = LLVMBuildExtractValue(g->b, agg, idx[0], "");
  return LLVMBuildInsertValue(g->b, agg, insert_path(g, inner, v, idx + 1, n - 1), idx[0], "");
}

static LLVMValueRef shuffle_mask(FwdGen *g, LLVMValueRef shuf) {
  unsigned n = LLVMGetNumMaskElements(shuf);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  LLVMValueRef *elems = xcalloc(n + 1, sizeof *elems);
  for (unsigned i = 0; i < n; i++) {
    int m = LLVMGetMaskValue(shuf, i);
    elems[i] = m == LLVMGetUndefMaskElem() ? LLVMGetPoison(i32) : LLVMConstInt(i32, (unsigned)m, 0);
  }
  LLVMValueRef mask = LLVMConstVector(elems, n);
  free(elems);
  return mask;
}

/* The tangent of an aggregate or vector instruction, built lane by lane from its operands' tangents. */
static LLVMValueRef aggregate_tangent(FwdGen *g, LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMTypeRef t = LLVMTypeOf(inst);
  LLVMValueRef a = LLVMGetOperand(inst, 0);
  LLVMTypeRef at = LLVMTypeOf(a);
  LLVMValueRef ta = tan_get_or_zero(g, a);
  LLVMValueRef lanes[MAX_WIDTH];
  unsigned nidx = (op == LLVMExtractValue || op == LLVMInsertValue) ? LLVMGetNumIndices(inst) : 0;
  const unsigned *idx = nidx ? LLVMGetIndices(inst) : NULL;
  LLVMValueRef mask = op == LLVMShuffleVector ? shuffle_mask(g, inst) : NULL;
  for (unsigned i = 0; i < g->width; i++) {
    LLVMValueRef la = tan_lane(g, at, ta, i);
    switch (op) {
    case LLVMExtractValue: lanes[i] = extract_path(g, la, idx, nidx); break;
    case LLVMExtractElement: lanes[i] = LLVMBuildExtractElement(g->b, la, fwd_primal(g, LLVMGetOperand(inst, 1)), ""); break;
    case LLVMInsertValue:
    case LLVMInsertElement:
    case LLVMShuffleVector: {
      LLVMValueRef b = LLVMGetOperand(inst, 1);
      LLVMValueRef lb = tan_lane(g, LLVMTypeOf(b), tan_get_or_zero(g, b), i);
      if (op == LLVMInsertValue)
        lanes[i] = insert_path(g, la, lb, idx, nidx);
      else if (op == LLVMInsertElement)
        lanes[i] = LLVMBuildInsertElement(g->b, la, lb, fwd_primal(g, LLVMGetOperand(inst, 2)), "");
      else
        lanes[i] = LLVMBuildShuffleVector(g->b, la, lb, mask, "");
      break;
    }
    default: return NULL;
    }
  }
  return tan_pack(g, t, lanes);
}

static LLVMValueRef select_tangent(FwdGen *g, LLVMValueRef inst) {
  LLVMTypeRef t = LLVMTypeOf(inst);
  LLVMValueRef cond = fwd_primal(g, LLVMGetOperand(inst, 0));
  LLVMValueRef a = LLVMGetOperand(inst, 1), b = LLVMGetOperand(inst, 2);
  LLVMValueRef ta, tb;
  if (ir_is_ptr(t)) {
    LLVMValueRef la[MAX_WIDTH], lb[MAX_WIDTH];
    if (!fwd_shadow_lanes(g, a, inst, "this pointer select", la) || !fwd_shadow_lanes(g, b, inst, "this pointer select", lb))
      return NULL;
    ta = tan_pack(g, t, la);
    tb = tan_pack(g, t, lb);
  } else {
    ta = tan_get(g, a);
    tb = tan_get(g, b);
    if (!ta && !tb) return NULL;
    if (!ta) ta = tan_zero(g, t);
    if (!tb) tb = tan_zero(g, t);
  }
  /* A scalar condition selects whole tangents, arrays included; a vector condition selects lanes. */
  if (!ir_is_int(LLVMTypeOf(cond)) && !tan_is_whole(g, t)) {
    LLVMValueRef lanes[MAX_WIDTH];
    for (unsigned i = 0; i < g->width; i++)
      lanes[i] = LLVMBuildSelect(g->b, cond, tan_lane(g, t, ta, i), tan_lane(g, t, tb, i), "");
    return tan_pack(g, t, lanes);
  }
  return LLVMBuildSelect(g->b, cond, ta, tb, "");
}

/* Integer operations that move whole bytes of float bits (activity_moves_bits) move the tangent bits
 * alike: shifts and masks by the same constants, a disjoint or of the operands' tangent bits. */
static LLVMValueRef bits_tangent(FwdGen *g, LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMTypeRef t = LLVMTypeOf(inst);
  LLVMValueRef a = LLVMGetOperand(inst, 0), b = LLVMGetOperand(inst, 1);
  LLVMValueRef lanes[MAX_WIDTH];
  for (unsigned i = 0; i < g->width; i++) {
    LLVMValueRef la, lb;
    if (op == LLVMOr) { /* both sides' bits, zero where a side has no tangent */
      la = tan_lane(g, t, tan_get(g, a), i);
      lb = tan_lane(g, t, tan_get(g, b), i);
    } else if (op == LLVMAnd && LLVMIsAConstant(a)) { /* the mask stays, the other side is the data */
      la = a;
      lb = tan_lane(g, t, tan_get(g, b), i);
    } else { /* shift amount or mask on the right */
      la = tan_lane(g, t, tan_get(g, a), i);
      lb = b;
    }
    lanes[i] = LLVMBuildBinOp(g->b, op, la, lb, "");
  }
  return tan_pack(g, t, lanes);
}

/* The tangent of an arithmetic or cast instruction whose primal copy is c. */
static LLVMValueRef arith_tangent(FwdGen *g, LLVMValueRef inst, LLVMValueRef c) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMTypeRef t = LLVMTypeOf(inst);
  LLVMValueRef a = LLVMGetOperand(inst, 0);
  LLVMValueRef ta = tan_get(g, a);
  if (g->error_mode && ir_is_fp_or_fp_vector(t) && op != LLVMBitCast && op != LLVMFreeze) return fwd_error_arith(g, inst, c);
  switch (op) {
  case LLVMFNeg: return tan_neg(g, t, ta);
  case LLVMFPExt:
  case LLVMFPTrunc:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMTrunc:
  case LLVMZExt: return tan_cast(g, op, LLVMTypeOf(a), t, ta);
  case LLVMFreeze: return ta;
  default: break;
  }
  LLVMValueRef b = LLVMGetOperand(inst, 1);
  LLVMValueRef tb = tan_get(g, b), x = fwd_primal(g, a), y = fwd_primal(g, b);
  switch (op) {
  case LLVMFAdd: return tan_add(g, t, ta, tb);
  case LLVMFSub: return tan_sub(g, t, ta, tb);
  case LLVMFMul: return tan_add(g, t, tan_scale_steep(g, t, y, ta, a), tan_scale_steep(g, t, x, tb, b));
  case LLVMFDiv: /* d(x/y) = (dx - (x/y) dy) / y */
    return tan_div(g, t, tan_sub(g, t, ta, tan_scale(g, t, c, tb)), y);
  case LLVMFRem: { /* x rem y = x - n y, n an integer: fmod's rule */
    LLVMValueRef xy[2] = {x, y};
    return tan_add(g, t, ta, tb ? tan_scale(g, t, rule_emit_partial(g->b, rule_for_name("fmod"), 1, xy, c, inst), tb) : NULL);
  }
  case LLVMShl:
  case LLVMLShr:
  case LLVMAnd:
  case LLVMOr: return bits_tangent(g, inst);
  default: return NULL;
  }
}

static void phi(FwdGen *g, LLVMValueRef inst) {
  size_t len;
  const char *name = LLVMGetValueName2(inst, &len);
  LLVMTypeRef t = LLVMTypeOf(inst);
  vmap_put(&g->vmap, inst, LLVMBuildPhi(g->b, t, name));
  if (activity_active(g->act, inst)) tan_set(g, inst, LLVMBuildPhi(g->b, tan_type(g, t), ""));
  vec_push(&g->phis, inst);
}

static void ret(FwdGen *g, LLVMValueRef inst) {
  if (LLVMGetNumOperands(inst) == 0) {
    LLVMBuildRetVoid(g->b);
    return;
  }
  LLVMValueRef v = LLVMGetOperand(inst, 0), pv = fwd_primal(g, v);
  if (!g->ret_tangent) {
    LLVMBuildRet(g->b, pv);
    return;
  }
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMValueRef tv;
  if (ir_is_ptr(t)) {
    LLVMValueRef lanes[MAX_WIDTH];
    if (!fwd_shadow_lanes(g, v, inst, "the returned pointer", lanes)) return;
    tv = tan_pack(g, t, lanes);
  } else {
    tv = tan_get_or_zero(g, v);
  }
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(g->func));
  LLVMValueRef pair = LLVMBuildInsertValue(g->b, LLVMGetUndef(rt), pv, 0, "");
  LLVMBuildRet(g->b, LLVMBuildInsertValue(g->b, pair, tv, 1, ""));
}

void fwd_inst(FwdGen *g, LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  LLVMValueRef at;
  const char *lost = activity_lost_derivative(g->act, inst, &at);
  if (lost) fwd_error(g, at, "%s", lost);
  if (op == LLVMCall) {
    fwd_call(g, inst);
    return;
  }
  if (fwd_memory(g, inst)) return;
  switch (op) {
  case LLVMPHI: phi(g, inst); return;
  case LLVMRet: ret(g, inst); return;
  case LLVMInvoke:
  case LLVMCallBr:
  case LLVMLandingPad:
  case LLVMResume:
  case LLVMCatchSwitch:
  case LLVMCatchPad:
  case LLVMCleanupPad:
  case LLVMCatchRet:
  case LLVMCleanupRet:
    if (!g->reported_eh) fwd_error(g, inst, "cannot differentiate exception handling");
    g->reported_eh = true; /* the landing pads and resumes that follow are the same problem */
    fwd_clone(g, inst);
    return;
  case LLVMVAArg:
    fwd_error(g, inst, "cannot differentiate a variadic function (va_arg)");
    fwd_clone(g, inst);
    return;
  case LLVMIndirectBr: /* its block addresses name the original function's blocks */
    fwd_error(g, inst, "cannot differentiate a computed goto");
    fwd_clone(g, inst);
    return;
  default: break;
  }
  LLVMValueRef c = fwd_clone(g, inst);
  if (!activity_active(g->act, inst)) return;
  switch (op) {
  case LLVMSelect: tan_set(g, inst, select_tangent(g, inst)); break;
  case LLVMExtractValue:
  case LLVMInsertValue:
  case LLVMExtractElement:
  case LLVMInsertElement:
  case LLVMShuffleVector: tan_set(g, inst, aggregate_tangent(g, inst)); break;
  default: tan_set(g, inst, arith_tangent(g, inst, c)); break;
  }
}
