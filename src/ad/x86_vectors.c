/* x86's lane-mixing vector intrinsics as lane operations (see x86_vectors.h). */
#include "ad/x86_vectors.h"

#include <string.h>

#include "ir/ir.h"

typedef enum { PAIR_SUMS, NARROW, DOT } Kind;

static const struct {
  const char *name;
  Kind kind;
  bool subtract; /* hsub */
} intrinsics[] = {
    {"llvm.x86.sse3.hadd.pd", PAIR_SUMS, false},     {"llvm.x86.sse3.hsub.pd", PAIR_SUMS, true},
    {"llvm.x86.sse3.hadd.ps", PAIR_SUMS, false},     {"llvm.x86.sse3.hsub.ps", PAIR_SUMS, true},
    {"llvm.x86.avx.hadd.pd.256", PAIR_SUMS, false},  {"llvm.x86.avx.hsub.pd.256", PAIR_SUMS, true},
    {"llvm.x86.avx.hadd.ps.256", PAIR_SUMS, false},  {"llvm.x86.avx.hsub.ps.256", PAIR_SUMS, true},
    {"llvm.x86.sse2.cvtpd2ps", NARROW, false},       {"llvm.x86.avx.cvt.pd2.ps.256", NARROW, false},
    {"llvm.x86.sse41.dppd", DOT, false},             {"llvm.x86.sse41.dpps", DOT, false},
    {"llvm.x86.avx.dp.ps.256", DOT, false},
};

static LLVMValueRef index_of(LLVMContextRef ctx, unsigned i) { return LLVMConstInt(LLVMInt32TypeInContext(ctx), i, 0); }

static LLVMValueRef shuffle(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, const unsigned *mask, unsigned n) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(x));
  LLVMValueRef m[16];
  for (unsigned i = 0; i < n; i++) m[i] = index_of(ctx, mask[i]);
  return LLVMBuildShuffleVector(b, x, y, LLVMConstVector(m, n), "");
}

/* hadd/hsub: within each 128-bit half, the sums of adjacent pairs of x's lanes, then of y's. Lane i of
 * the result is lanes first[i] and first[i] + 1 of the pair (x, y) taken as one vector of 2n. */
static LLVMValueRef pair_sums(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, bool subtract) {
  /* a 128-bit half holds h lanes: its result is x's h/2 pair sums, then y's */
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(x)), h = LLVMGetTypeKind(LLVMGetElementType(LLVMTypeOf(x))) == LLVMDoubleTypeKind ? 2 : 4;
  unsigned even[16], odd[16];
  for (unsigned i = 0; i < n; i++) {
    unsigned half = i / h, k = i % h, from_y = k >= h / 2, pair = k % (h / 2);
    unsigned lane = half * h + 2 * pair + (from_y ? n : 0);
    even[i] = lane, odd[i] = lane + 1;
  }
  LLVMValueRef lo = shuffle(b, x, y, even, n), hi = shuffle(b, x, y, odd, n);
  return subtract ? LLVMBuildFSub(b, lo, hi, "") : LLVMBuildFAdd(b, lo, hi, "");
}

/* cvtpd2ps: the doubles rounded to floats; the SSE2 form fills the upper two lanes with zeros. */
static LLVMValueRef narrow(LLVMBuilderRef b, LLVMValueRef x, LLVMTypeRef result) {
  LLVMContextRef ctx = LLVMGetTypeContext(result);
  unsigned n = LLVMGetVectorSize(LLVMTypeOf(x)), m = LLVMGetVectorSize(result);
  LLVMValueRef f = LLVMBuildFPTrunc(b, x, LLVMVectorType(LLVMFloatTypeInContext(ctx), n), "");
  if (m == n) return f;
  unsigned mask[8];
  for (unsigned i = 0; i < m; i++) mask[i] = i < n ? i : n; /* lane n of (f, 0): a zero */
  return shuffle(b, f, LLVMConstNull(LLVMTypeOf(f)), mask, m);
}

/* dp: in each 128-bit half, the products of the lanes the mask's high four bits select (+0 for the others),
 * summed as the instruction sums them ((p0 + p1) + (p2 + p3) for floats), into the lanes its low four bits
 * select (+0 in the others). */
static LLVMValueRef dot(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, unsigned imm) {
  LLVMTypeRef vt = LLVMTypeOf(x), t = LLVMGetElementType(vt);
  LLVMContextRef ctx = LLVMGetTypeContext(vt);
  unsigned n = LLVMGetVectorSize(vt), h = n > 4 ? 4 : n;
  LLVMValueRef zero = LLVMConstReal(t, 0), out = LLVMConstNull(vt);
  for (unsigned half = 0; half < n / h; half++) {
    LLVMValueRef p[4];
    for (unsigned k = 0; k < h; k++) {
      unsigned lane = half * h + k;
      p[k] = imm >> (4 + k) & 1 ? LLVMBuildFMul(b, LLVMBuildExtractElement(b, x, index_of(ctx, lane), ""),
                                                LLVMBuildExtractElement(b, y, index_of(ctx, lane), ""), "")
                                : zero;
    }
    LLVMValueRef sum = LLVMBuildFAdd(b, p[0], p[1], "");
    if (h == 4) sum = LLVMBuildFAdd(b, sum, LLVMBuildFAdd(b, p[2], p[3], ""), "");
    for (unsigned k = 0; k < h; k++)
      if (imm >> k & 1) out = LLVMBuildInsertElement(b, out, sum, index_of(ctx, half * h + k), "");
  }
  return out;
}

static LLVMValueRef rewritten(LLVMBuilderRef b, LLVMValueRef call) {
  if (!ir_is_call(call) || strncmp(ir_called_name(call), "llvm.x86.", 9)) return NULL;
  const char *name = ir_called_name(call);
  for (size_t k = 0; k < sizeof intrinsics / sizeof intrinsics[0]; k++) {
    if (strcmp(name, intrinsics[k].name)) continue;
    LLVMValueRef x = LLVMGetArgOperand(call, 0);
    switch (intrinsics[k].kind) {
    case PAIR_SUMS: return pair_sums(b, x, LLVMGetArgOperand(call, 1), intrinsics[k].subtract);
    case NARROW: return narrow(b, x, LLVMTypeOf(call));
    case DOT: {
      LLVMValueRef imm = LLVMGetArgOperand(call, 2);
      return LLVMIsAConstantInt(imm) ? dot(b, x, LLVMGetArgOperand(call, 1), (unsigned)LLVMConstIntGetZExtValue(imm) & 0xff) : NULL;
    }
    }
  }
  return NULL;
}

unsigned x86_vectors_apply(LLVMModuleRef m, const ValueMap *reached) { return ir_rewrite_instructions(m, reached, rewritten); }
