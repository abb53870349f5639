/* What a global union's bytes hold (see union_globals.h). */
#include "analysis/union_globals.h"

#include <string.h>

#include <llvm-c/Target.h>

#include "ir/ir.h"

static bool is_gep(LLVMValueRef v) {
  return LLVMIsAGetElementPtrInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr);
}

static bool is_cast(LLVMValueRef v) {
  return LLVMIsABitCastInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMBitCast);
}

/* The bytes [*lo, *hi) of g an access of `size` bytes at p may touch: at a constant offset, or anywhere in
 * an array of g an inbounds index selects an element of. */
static bool bytes_of(LLVMModuleRef m, LLVMValueRef g, LLVMValueRef p, long long size, long long *lo, long long *hi) {
  long long off = 0;
  for (int depth = 0; depth < 32 && p != g; depth++) {
    if (is_cast(p) || (is_gep(p) && ir_gep_constant_offset(m, p, &off))) {
      p = LLVMGetOperand(p, 0);
      continue;
    }
    if (!is_gep(p) || LLVMGetNumOperands(p) != 3 || !LLVMIsInBounds(p)) return false;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    LLVMValueRef first = LLVMGetOperand(p, 1);
    if (LLVMGetTypeKind(t) != LLVMArrayTypeKind || !LLVMIsAConstantInt(first) || LLVMConstIntGetSExtValue(first)) return false;
    long long inner = 0;
    LLVMValueRef q = LLVMGetOperand(p, 0);
    for (int d = 0; d < 32 && q != g; d++) {
      if (!(is_cast(q) || (is_gep(q) && ir_gep_constant_offset(m, q, &inner)))) return false;
      q = LLVMGetOperand(q, 0);
    }
    if (q != g) return false;
    *lo = inner + off, *hi = inner + (long long)ir_type_size(m, t) + off + size;
    return true;
  }
  if (p != g) return false;
  *lo = off, *hi = off + size;
  return true;
}

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
    else if ((is_gep(user) || is_cast(user)) && LLVMGetOperand(user, 0) == v) visit(q, user, depth + 1);
    else if (LLVMIsALoadInst(user) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v && LLVMGetOperand(user, 0) != v)) {
      LLVMTypeRef t = LLVMTypeOf(LLVMIsALoadInst(user) ? user : LLVMGetOperand(user, 0));
      long long lo, hi;
      if (!bytes_of(q->m, q->g, v, (long long)ir_type_size(q->m, t), &lo, &hi)) {
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
  while (is_gep(g) || is_cast(g)) g = LLVMGetOperand(g, 0);
  if (!LLVMIsAGlobalVariable(g)) return MEMTYPE_UNKNOWN;
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  const char *name = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMGetStructName(t) : NULL;
  if (!name || strncmp(name, "union.", 6)) return MEMTYPE_UNKNOWN;
  LLVMModuleRef m = LLVMGetGlobalParent(g);
  LLVMTypeRef vt = LLVMTypeOf(LLVMIsAStoreInst(access) ? LLVMGetOperand(access, 0) : access);
  Question q = {.m = m, .g = g};
  if (!bytes_of(m, g, p, (long long)ir_type_size(m, vt), &q.lo, &q.hi)) return MEMTYPE_UNKNOWN;
  visit(&q, g, 0);
  if (q.failed || !q.seen) return MEMTYPE_UNKNOWN;
  *fp_bits = q.bits;
  return q.kind;
}
