/* Tangent values of any width. At width 1 a tangent has its primal's type. At width N a float's
 * tangent is an <N x T> vector, so that arithmetic on N directions is one vector instruction; every
 * other tangent (pointers' shadows, aggregates, vectors) is an [N x T] array handled lane by lane. */
#include "forward/fwd_internal.h"

#include "analysis/nonfinite.h"
#include "ir/ir.h"
#include "rules/rules.h"

bool tan_is_whole(const FwdGen *g, LLVMTypeRef t) { return g->width == 1 || ir_is_fp(t); }

LLVMTypeRef tan_type(const FwdGen *g, LLVMTypeRef t) {
  if (g->width == 1) return t;
  if (ir_is_fp(t)) return LLVMVectorType(t, g->width);
  return LLVMArrayType2(t, g->width);
}

LLVMValueRef tan_zero(const FwdGen *g, LLVMTypeRef t) { return LLVMConstNull(tan_type(g, t)); }

LLVMValueRef tan_lane(FwdGen *g, LLVMTypeRef t, LLVMValueRef tv, unsigned i) {
  if (!tv) return LLVMConstNull(t);
  if (g->width == 1) return tv;
  if (ir_is_fp(t)) return LLVMBuildExtractElement(g->b, tv, ir_const_i32(g->ctx, i), "");
  return LLVMBuildExtractValue(g->b, tv, i, "");
}

LLVMValueRef tan_pack(FwdGen *g, LLVMTypeRef t, LLVMValueRef *lanes) {
  if (g->width == 1) return lanes[0];
  LLVMValueRef out = LLVMGetUndef(tan_type(g, t));
  for (unsigned i = 0; i < g->width; i++)
    out = ir_is_fp(t) ? LLVMBuildInsertElement(g->b, out, lanes[i], ir_const_i32(g->ctx, i), "")
                      : LLVMBuildInsertValue(g->b, out, lanes[i], i, "");
  return out;
}

LLVMValueRef tan_get(FwdGen *g, LLVMValueRef orig) {
  return vmap_get(&g->tmap, orig);
}

LLVMValueRef tan_get_or_zero(FwdGen *g, LLVMValueRef orig) {
  LLVMValueRef t = tan_get(g, orig);
  return t ? t : tan_zero(g, LLVMTypeOf(orig));
}

void tan_set(FwdGen *g, LLVMValueRef orig, LLVMValueRef tangent) {
  if (tangent) vmap_put(&g->tmap, orig, tangent);
}

/* A primal scalar as a whole tangent: itself at width 1, splatted to <N x T> otherwise. */
static LLVMValueRef splat(FwdGen *g, LLVMValueRef v) {
  if (g->width == 1) return v;
  LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), g->width);
  LLVMValueRef one = LLVMBuildInsertElement(g->b, LLVMGetUndef(vt), v, ir_const_i32(g->ctx, 0), "");
  return LLVMBuildShuffleVector(g->b, one, LLVMGetUndef(vt), LLVMConstNull(LLVMVectorType(LLVMInt32TypeInContext(g->ctx), g->width)), "");
}

typedef enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV } BinOp;

static LLVMValueRef binop(FwdGen *g, BinOp op, LLVMValueRef a, LLVMValueRef c) {
  switch (op) {
  case OP_ADD: return LLVMBuildFAdd(g->b, a, c, "");
  case OP_SUB: return LLVMBuildFSub(g->b, a, c, "");
  case OP_MUL: return LLVMBuildFMul(g->b, a, c, "");
  default: return LLVMBuildFDiv(g->b, a, c, "");
  }
}

/* op on two tangents (coeff == NULL) or on a tangent and a primal coefficient. */
static LLVMValueRef lanewise(FwdGen *g, LLVMTypeRef t, BinOp op, LLVMValueRef a, LLVMValueRef c, bool c_is_primal) {
  if (tan_is_whole(g, t)) return binop(g, op, a, c_is_primal ? splat(g, c) : c);
  LLVMValueRef lanes[MAX_WIDTH];
  for (unsigned i = 0; i < g->width; i++)
    lanes[i] = binop(g, op, tan_lane(g, t, a, i), c_is_primal ? c : tan_lane(g, t, c, i));
  return tan_pack(g, t, lanes);
}

LLVMValueRef tan_add(FwdGen *g, LLVMTypeRef t, LLVMValueRef a, LLVMValueRef c) {
  if (!a) return c;
  if (!c) return a;
  return lanewise(g, t, OP_ADD, a, c, false);
}

LLVMValueRef tan_neg(FwdGen *g, LLVMTypeRef t, LLVMValueRef a) {
  if (!a) return NULL;
  if (tan_is_whole(g, t)) return LLVMBuildFNeg(g->b, a, "");
  LLVMValueRef lanes[MAX_WIDTH];
  for (unsigned i = 0; i < g->width; i++) lanes[i] = LLVMBuildFNeg(g->b, tan_lane(g, t, a, i), "");
  return tan_pack(g, t, lanes);
}

LLVMValueRef tan_sub(FwdGen *g, LLVMTypeRef t, LLVMValueRef a, LLVMValueRef c) {
  if (!c) return a;
  if (!a) return tan_neg(g, t, c);
  return lanewise(g, t, OP_SUB, a, c, false);
}

LLVMValueRef tan_scale(FwdGen *g, LLVMTypeRef t, LLVMValueRef coeff, LLVMValueRef a) {
  if (!a || !coeff) return NULL;
  return lanewise(g, t, OP_MUL, a, coeff, true);
}

LLVMValueRef tan_scale_steep(FwdGen *g, LLVMTypeRef t, LLVMValueRef coeff, LLVMValueRef a, LLVMValueRef of) {
  if (!a || !coeff || !nonfinite_tangent_possible(of)) return tan_scale(g, t, coeff, a);
  LLVMValueRef lanes[MAX_WIDTH];
  for (unsigned i = 0; i < g->width; i++)
    lanes[i] = rule_zero_where_zero(g->b, coeff, LLVMBuildFMul(g->b, coeff, tan_lane(g, t, a, i), ""));
  return tan_pack(g, t, lanes);
}

LLVMValueRef tan_div(FwdGen *g, LLVMTypeRef t, LLVMValueRef a, LLVMValueRef coeff) {
  if (!a) return NULL;
  return lanewise(g, t, OP_DIV, a, coeff, true);
}

LLVMValueRef tan_cast(FwdGen *g, LLVMOpcode op, LLVMTypeRef from, LLVMTypeRef to, LLVMValueRef a) {
  if (!a) return NULL;
  if (tan_is_whole(g, from) && tan_is_whole(g, to)) return LLVMBuildCast(g->b, op, a, tan_type(g, to), "");
  LLVMValueRef lanes[MAX_WIDTH];
  for (unsigned i = 0; i < g->width; i++) lanes[i] = LLVMBuildCast(g->b, op, tan_lane(g, from, a, i), to, "");
  return tan_pack(g, to, lanes);
}
