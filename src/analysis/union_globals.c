/* What a global union's bytes hold (see union_globals.h). */
#include "analysis/union_globals.h"

#include <string.h>

#include "ir/ir.h"

static MemType kind_of(LLVMTypeRef t, unsigned *bits) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  *bits = 0;
  if (ir_is_fp(t)) return *bits = LLVMGetTypeKind(t) == LLVMFloatTypeKind ? 32 : LLVMGetTypeKind(t) == LLVMDoubleTypeKind ? 64 : 0, MEMTYPE_FP;
  if (ir_is_ptr(t)) return MEMTYPE_PTR;
  return ir_is_int(t) ? MEMTYPE_INT : MEMTYPE_UNKNOWN;
}

typedef struct {
  LLVMModuleRef m;
  LLVMValueRef g;
  long long lo, hi; /* the bytes asked about */
  MemType kind;
  unsigned bits;
  bool seen, failed;
} Question;

static void visit(Question *q, LLVMValueRef v, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u && !q->failed; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (depth > 16) q->failed = true;
    else if (ir_is_address_step(user) && LLVMGetOperand(user, 0) == v) visit(q, user, depth + 1);
    else if (LLVMIsALoadInst(user) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v && LLVMGetOperand(user, 0) != v)) {
      LLVMTypeRef t = LLVMTypeOf(LLVMIsALoadInst(user) ? user : LLVMGetOperand(user, 0));
      long long lo, hi;
      bool exact;
      if (!ir_bytes_in_global(q->m, q->g, v, (long long)ir_type_size(q->m, t), &lo, &hi, &exact)) {
        q->failed = true;
        continue;
      }
      if (hi <= q->lo || lo >= q->hi) continue;
      unsigned bits;
      MemType k = kind_of(t, &bits);
      if (!q->seen) q->kind = k, q->bits = bits, q->seen = true;
      else if (k != q->kind || bits != q->bits) q->failed = true;
    } else if (!(LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMPtrToInt)) { /* an overlap check's */
      q->failed = true; /* passed, kept, compared: anything may be read or written there */
    }
  }
}

MemType union_global_kind(LLVMValueRef access, unsigned *fp_bits) {
  *fp_bits = 0;
  LLVMValueRef p = LLVMGetOperand(access, LLVMIsAStoreInst(access) ? 1 : 0);
  LLVMValueRef g = p;
  while (ir_is_address_step(g)) g = LLVMGetOperand(g, 0);
  if (!LLVMIsAGlobalVariable(g)) return MEMTYPE_UNKNOWN;
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  const char *name = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMGetStructName(t) : NULL;
  if (!name || strncmp(name, "union.", 6)) return MEMTYPE_UNKNOWN;
  LLVMModuleRef m = LLVMGetGlobalParent(g);
  LLVMTypeRef vt = LLVMTypeOf(LLVMIsAStoreInst(access) ? LLVMGetOperand(access, 0) : access);
  Question q = {.m = m, .g = g};
  bool exact;
  if (!ir_bytes_in_global(m, g, p, (long long)ir_type_size(m, vt), &q.lo, &q.hi, &exact)) return MEMTYPE_UNKNOWN;
  visit(&q, g, 0);
  if (q.failed || !q.seen) return MEMTYPE_UNKNOWN;
  *fp_bits = q.bits;
  return q.kind;
}
