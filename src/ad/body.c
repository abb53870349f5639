/* The body the generators differentiate (see body.h). */
#include "ad/body.h"

#include <llvm-c/DebugInfo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/library_reads.h"
#include "ir/diag.h"
#include "ir/ir.h"

/* The successors a block has when nothing throws. */
static unsigned normal_successors(LLVMValueRef term) {
  return LLVMGetInstructionOpcode(term) == LLVMInvoke ? 1 : LLVMGetNumSuccessors(term);
}

/* A call like the invoke (its callee, arguments, attributes and location) at the builder. */
static LLVMValueRef call_like(LLVMBuilderRef b, LLVMValueRef invoke) {
  unsigned n = LLVMGetNumArgOperands(invoke);
  LLVMValueRef *args = xcalloc(n + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++) args[i] = LLVMGetOperand(invoke, i);
  size_t len;
  const char *name = LLVMGetValueName2(invoke, &len);
  LLVMValueRef call = LLVMBuildCall2(b, LLVMGetCalledFunctionType(invoke), LLVMGetCalledValue(invoke), args, n, name);
  free(args);
  LLVMSetInstructionCallConv(call, LLVMGetInstructionCallConv(invoke));
  ir_copy_call_attributes(invoke, call);
  LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(invoke));
  return call;
}

LLVMValueRef ad_invoke_to_call(LLVMValueRef invoke) {
  LLVMBasicBlockRef unwind = LLVMGetUnwindDest(invoke);
  if (LLVMIsAPHINode(LLVMGetFirstInstruction(unwind))) return NULL; /* its phis would keep the edge */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(invoke)));
  LLVMPositionBuilderBefore(b, invoke);
  LLVMValueRef call = call_like(b, invoke);
  LLVMBuildBr(b, LLVMGetNormalDest(invoke));
  LLVMReplaceAllUsesWith(invoke, call);
  LLVMInstructionEraseFromParent(invoke);
  LLVMDisposeBuilder(b);
  return call;
}

/* A throw: C++'s own (throw, rethrow) or the library's helpers (std::__throw_length_error, ...: _ZSt, the
 * name's length, __throw_...). */
static bool is_throw(LLVMValueRef inst) {
  if (!ir_is_call(inst) && LLVMGetInstructionOpcode(inst) != LLVMInvoke) return false;
  const char *name = ir_called_name(inst);
  if (!strcmp(name, "__cxa_throw") || !strcmp(name, "__cxa_rethrow")) return true;
  if (strncmp(name, "_ZSt", 4)) return false;
  name += 4;
  while (*name >= '0' && *name <= '9') name++;
  return !strncmp(name, "__throw_", 8);
}

static LLVMValueRef throw_in(LLVMBasicBlockRef bb) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    if (is_throw(i)) return i;
  return NULL;
}

static bool block_throws(LLVMBasicBlockRef bb) { return throw_in(bb) != NULL; }

static unsigned normal_successors(LLVMValueRef term);

/* The blocks from which every path throws, each with the throw it leads to: what they compute goes only
 * into the exception (`throw std::domain_error("log of " + std::to_string(v))`: to_string's formatting
 * of an active value is refused in a derivative). In the copy each is the throw alone. A block joins when
 * all of its successors have, so that following any successor reaches the throw. */
void ad_body_doomed_blocks(LLVMValueRef fn, ValueMap *doomed) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    if (block_throws(bb)) vmap_put(doomed, LLVMBasicBlockAsValue(bb), throw_in(bb));
  for (bool changed = true; changed;) {
    changed = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bb), to = NULL;
      unsigned n = t ? normal_successors(t) : 0;
      if (!n || vmap_has(doomed, LLVMBasicBlockAsValue(bb))) continue;
      for (unsigned i = 0; i < n; i++) {
        LLVMValueRef s = vmap_get(doomed, LLVMBasicBlockAsValue(LLVMGetSuccessor(t, i)));
        to = s;
        if (!s) break;
      }
      if (to) vmap_put(doomed, LLVMBasicBlockAsValue(bb), to), changed = true;
    }
  }
}

/* ---- pointers moved as integers ----
 * The optimiser stores a pointer as the integer of its bits where the memory's type says integer (a
 * std::unique_ptr's tuple, a union), and loads one back that way. The derivative would lose the pointer's
 * shadow; in the copy such a store stores the pointer and such a load loads one, the same bits. */

static bool pointer_bits(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 64; }

/* store (ptrtoint p), a: the pointer p, else NULL */
static LLVMValueRef stored_pointer(LLVMValueRef inst) {
  if (!LLVMIsAStoreInst(inst)) return NULL;
  LLVMValueRef v = LLVMGetOperand(inst, 0);
  return LLVMIsAPtrToIntInst(v) && pointer_bits(LLVMTypeOf(v)) && ir_is_ptr(LLVMTypeOf(LLVMGetOperand(v, 0)))
             ? LLVMGetOperand(v, 0)
             : NULL;
}

/* a load of 64 bits used only by inttoptr */
static bool loads_pointer(LLVMValueRef inst) {
  if (!LLVMIsALoadInst(inst) || !pointer_bits(LLVMTypeOf(inst)) || !LLVMGetFirstUse(inst)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(inst); u; u = LLVMGetNextUse(u))
    if (!LLVMIsAIntToPtrInst(LLVMGetUser(u))) return false;
  return true;
}

/* select c, (ptrtoint a), (ptrtoint b) of 64 bits used only by inttoptr: instcombine's way with a choice
 * of two pointers (std::minmax_element's pair of iterators). The copy chooses the pointers themselves. */
static bool selects_pointers(LLVMValueRef inst) {
  if (!LLVMIsASelectInst(inst) || !pointer_bits(LLVMTypeOf(inst)) || !LLVMGetFirstUse(inst)) return false;
  for (unsigned k = 1; k < 3; k++) {
    LLVMValueRef v = LLVMGetOperand(inst, k);
    if (!LLVMIsAPtrToIntInst(v) || !ir_is_ptr(LLVMTypeOf(LLVMGetOperand(v, 0)))) return false;
  }
  for (LLVMUseRef u = LLVMGetFirstUse(inst); u; u = LLVMGetNextUse(u))
    if (!LLVMIsAIntToPtrInst(LLVMGetUser(u))) return false;
  return true;
}

/* A local that is written and never read: at -O0 the functor std::for_each returns by value is stored
 * into a temporary nobody reads. Its stores would give the local a shadow, and reverse mode a pointer it
 * cannot follow out of the returned aggregate; the copy leaves them out. */
static bool only_written(LLVMValueRef p) {
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && LLVMGetOperand(user, 0) != p) continue;
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p && only_written(user)) continue;
    if (LLVMIsAIntrinsicInst(user) && strstr(ir_called_name(user), "llvm.lifetime")) continue;
    return false;
  }
  return true;
}

static bool dead_store(LLVMValueRef inst) {
  if (!LLVMIsAStoreInst(inst)) return false;
  LLVMValueRef p = ir_address_base(LLVMGetOperand(inst, 1));
  return LLVMIsAAllocaInst(p) && only_written(p);
}

static bool needs_copy(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if ((t && LLVMGetInstructionOpcode(t) == LLVMInvoke) || block_throws(bb)) return true;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (ad_body_open_codes(i) || library_read_rewrites(i) || stored_pointer(i) || loads_pointer(i) || selects_pointers(i) || dead_store(i)) return true;
  }
  return false;
}

/* Instead of a throw in the copy: the runtime's message (where, in which function) and an abort. The
 * derivative cannot go on (its tape would be left half written), and an exception the program catches
 * would let it go on with a wrong tape. */
static void thrown(LLVMBuilderRef b, AdModule *ad, LLVMValueRef inst) {
  unsigned len = 0, line = LLVMGetDebugLocLine(inst);
  const char *file = line ? LLVMGetDebugLocFilename(inst, &len) : NULL;
  char *where = file ? xasprintf("%.*s:%u, in function '%s'", (int)len, file, line, diag_source_function(inst))
                     : xasprintf("in function '%s'", diag_source_function(inst));
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ad->ctx, 0);
  LLVMValueRef arg = LLVMBuildGlobalStringPtr(b, where, "parad.throw.at");
  LLVMValueRef call = ir_call_named(b, "__parad_rt_thrown", LLVMFunctionType(LLVMVoidTypeInContext(ad->ctx), &ptr, 1, 0), &arg, 1);
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ad->ctx, ir_attr_kind("noreturn"), 0));
  LLVMBuildUnreachable(b);
  free(where);
}

/* ---- complex helpers ----
 * C and C++ complex arithmetic calls the compiler runtime for a multiply or a divide (__muldc3: Annex G's
 * recovery of infinities and NaNs) and libm for the complex functions. In the copy they are open-coded
 * with the textbook formulas over real operations that have derivative rules, so that their derivatives
 * follow; the values differ from the library's only where those recover infinities or NaNs or avoid an
 * overflow of c^2 + d^2. */
typedef enum {
  CX_NONE, CX_MUL, CX_DIV, CX_POW, /* two complex operands; the rest take one */
  CX_EXP, CX_ABS, CX_ARG, CX_LOG, CX_SQRT, CX_SIN, CX_COS, CX_TAN, CX_SINH, CX_COSH, CX_TANH,
  CX_ASIN, CX_ACOS, CX_ATAN, CX_ASINH, CX_ACOSH, CX_ATANH /* the library's value, a formula's derivative */
} ComplexOp;

static ComplexOp complex_op(LLVMValueRef inst) {
  if (!ir_is_call(inst)) return CX_NONE;
  static const struct {
    const char *name;
    ComplexOp op;
  } table[] = {{"__muldc3", CX_MUL}, {"__mulsc3", CX_MUL}, {"__mulxc3", CX_MUL}, {"__divdc3", CX_DIV},
               {"__divsc3", CX_DIV}, {"__divxc3", CX_DIV},
               {"cpow", CX_POW},     {"cexp", CX_EXP},     {"cabs", CX_ABS},     {"carg", CX_ARG},
               {"clog", CX_LOG},     {"csqrt", CX_SQRT},   {"csin", CX_SIN},     {"ccos", CX_COS},
               {"ctan", CX_TAN},     {"csinh", CX_SINH},   {"ccosh", CX_COSH},   {"ctanh", CX_TANH},
               {"casin", CX_ASIN},   {"cacos", CX_ACOS},   {"catan", CX_ATAN},   {"casinh", CX_ASINH},
               {"cacosh", CX_ACOSH}, {"catanh", CX_ATANH}};
  char name[16];
  snprintf(name, sizeof name, "%s", ir_called_name(inst));
  size_t len = strlen(name);
  if (len > 1 && name[0] == 'c' && (name[len - 1] == 'f' || name[len - 1] == 'l')) name[len - 1] = 0; /* cexpf, cexpl */
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(name, table[i].name)) return table[i].op;
  return CX_NONE;
}

/* libm's real function `name` for floats of type t (expf for float). */
static LLVMValueRef real_call(LLVMBuilderRef b, const char *name, LLVMTypeRef t, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef params[2] = {t, t};
  char full[32];
  LLVMTypeKind k = LLVMGetTypeKind(t);
  snprintf(full, sizeof full, "%s%s", name, k == LLVMFloatTypeKind ? "f" : k == LLVMX86_FP80TypeKind ? "l" : "");
  return ir_call_named(b, full, LLVMFunctionType(t, params, n, 0), args, n);
}

/* The complex value (re, im) as the helper's result type: a struct of two, or a vector of two floats. */
static LLVMValueRef complex_value(LLVMBuilderRef b, LLVMTypeRef t, LLVMValueRef re, LLVMValueRef im) {
  LLVMValueRef v = LLVMGetUndef(t);
  if (LLVMGetTypeKind(t) == LLVMStructTypeKind)
    return LLVMBuildInsertValue(b, LLVMBuildInsertValue(b, v, re, 0, ""), im, 1, "");
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(t));
  v = LLVMBuildInsertElement(b, v, re, LLVMConstInt(i32, 0, 0), "");
  return LLVMBuildInsertElement(b, v, im, LLVMConstInt(i32, 1, 0), "");
}

/* (re, im) of e^(p + qi) */
static void complex_exp(LLVMBuilderRef b, LLVMTypeRef t, LLVMValueRef p, LLVMValueRef q, LLVMValueRef *re, LLVMValueRef *im) {
  LLVMValueRef e = real_call(b, "exp", t, &p, 1);
  *re = LLVMBuildFMul(b, e, real_call(b, "cos", t, &q, 1), "");
  *im = LLVMBuildFMul(b, e, real_call(b, "sin", t, &q, 1), "");
}

/* f(p) g(q) for the real functions named */
static LLVMValueRef product(LLVMBuilderRef b, LLVMTypeRef t, const char *f, LLVMValueRef p, const char *g, LLVMValueRef q) {
  return LLVMBuildFMul(b, real_call(b, f, t, &p, 1), real_call(b, g, t, &q, 1), "");
}

/* The pair {T, T} a long double complex is passed in, by value in memory (x86-64's ABI), or NULL. */
static LLVMTypeRef complex_in_memory(LLVMValueRef call, unsigned i) {
  LLVMTypeRef t = ir_call_arg_type_attr(call, i, "byval");
  if (!t || LLVMGetTypeKind(t) != LLVMStructTypeKind || LLVMCountStructElementTypes(t) != 2) return NULL;
  LLVMTypeRef e = LLVMStructGetTypeAtIndex(t, 0);
  return ir_is_fp(e) && LLVMGetTypeKind(e) != LLVMVectorTypeKind && LLVMStructGetTypeAtIndex(t, 1) == e ? t : NULL;
}

/* The scalars of a complex helper's operands in order: a float function takes each complex as one vector
 * of two (x86-64's ABI for float _Complex), and a long double one as a pair in memory, split here (b NULL:
 * only counted). 0 when some operand is none of a float, such a vector or such a pair. */
static unsigned complex_operands(LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef x[4]) {
  unsigned k = 0;
  for (unsigned i = 0, n = LLVMGetNumArgOperands(call); i < n; i++) {
    LLVMValueRef v = LLVMGetOperand(call, i);
    LLVMTypeRef t = LLVMTypeOf(v), pair = complex_in_memory(call, i);
    if (ir_is_fp(t) && LLVMGetTypeKind(t) != LLVMVectorTypeKind) {
      if (k >= 4) return 0;
      x[k++] = v;
      continue;
    }
    if (pair) {
      if (k + 2 > 4) return 0;
      for (unsigned l = 0; l < 2; l++, k++)
        x[k] = b ? LLVMBuildLoad2(b, LLVMStructGetTypeAtIndex(pair, 0), LLVMBuildStructGEP2(b, pair, v, l, ""), "") : NULL;
      continue;
    }
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind || LLVMGetVectorSize(t) != 2 ||
        LLVMGetTypeKind(LLVMGetElementType(t)) != LLVMFloatTypeKind || k + 2 > 4)
      return 0;
    for (unsigned l = 0; l < 2; l++, k++)
      x[k] = b ? LLVMBuildExtractElement(b, v, LLVMConstInt(LLVMInt32TypeInContext(LLVMGetTypeContext(t)), l, 0), "") : NULL;
  }
  return k;
}

/* (re, im) of the square root of p + qi. t = sqrt((|z| + |p|) / 2); p >= 0: t + i q / 2t, else |q| / 2t +
 * i copysign(t, q) (Kahan's). The textbook sqrt((|z| + p) / 2) + i copysign(sqrt((|z| - p) / 2), q) takes a
 * square root of 0 on the real axis, where csqrt is smooth but the root's derivative is infinite: 0 times
 * that gave NaN. Here t is 0 only at z = 0, where csqrt has no derivative. */
static void complex_sqrt(LLVMBuilderRef b, LLVMTypeRef t, LLVMValueRef p, LLVMValueRef q, LLVMValueRef *re, LLVMValueRef *im) {
  LLVMValueRef pq[2] = {p, q}, two = LLVMConstReal(t, 2);
  LLVMValueRef r = real_call(b, "hypot", t, pq, 2), half = LLVMConstReal(t, 0.5), zero = LLVMConstReal(t, 0);
  LLVMValueRef s = LLVMBuildFMul(b, LLVMBuildFAdd(b, r, real_call(b, "fabs", t, &p, 1), ""), half, "");
  LLVMValueRef root = real_call(b, "sqrt", t, &s, 1), twice = LLVMBuildFMul(b, two, root, "");
  LLVMValueRef right = LLVMBuildFCmp(b, LLVMRealOGE, p, zero, ""), sign[2] = {root, q};
  LLVMValueRef across = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, root, zero, ""), q, LLVMBuildFDiv(b, q, twice, ""), "");
  *re = LLVMBuildSelect(b, right, root, LLVMBuildFDiv(b, real_call(b, "fabs", t, &q, 1), twice, ""), "");
  *im = LLVMBuildSelect(b, right, across, real_call(b, "copysign", t, sign, 2), "");
}

/* (re, im) of (p + qi)(r + si) and of 1 / (p + qi) */
static void complex_mul(LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef q, LLVMValueRef r, LLVMValueRef s, LLVMValueRef *re, LLVMValueRef *im) {
  *re = LLVMBuildFSub(b, LLVMBuildFMul(b, p, r, ""), LLVMBuildFMul(b, q, s, ""), "");
  *im = LLVMBuildFAdd(b, LLVMBuildFMul(b, p, s, ""), LLVMBuildFMul(b, q, r, ""), "");
}
static void complex_inverse(LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef q, LLVMValueRef *re, LLVMValueRef *im) {
  LLVMValueRef den = LLVMBuildFAdd(b, LLVMBuildFMul(b, p, p, ""), LLVMBuildFMul(b, q, q, ""), "");
  *re = LLVMBuildFDiv(b, p, den, "");
  *im = LLVMBuildFDiv(b, LLVMBuildFNeg(b, q, ""), den, "");
}

/* v as the derivative sees it: the same number, with no derivative (the runtime's identity, which the
 * activity analysis knows as inactive): the library's value of an inverse function is taken at it. */
static LLVMValueRef without_derivative(LLVMBuilderRef b, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return ir_call_named(b, LLVMGetTypeKind(t) == LLVMFloatTypeKind ? "__parad_rt_constant_f" : "__parad_rt_constant", LLVMFunctionType(t, &t, 1, 0), &v, 1);
}

/* The inverse functions (casin ... catanh) are the library's value v, computed at the operand z taken
 * without its derivative (z0), plus f'(z) (z - z0), which is zero but carries the derivative f'(z) dz, f'
 * written with the functions open-coded above: 1/sqrt(1 - z^2) for casin (its negative for cacos),
 * 1/(1 + z^2) for catan, 1/sqrt(1 + z^2) for casinh, 1/(sqrt(z - 1) sqrt(z + 1)) for cacosh, 1/(1 - z^2)
 * for catanh, each with the principal square root the library's branch cuts follow. The value is the
 * library's to the last bit (a textbook formula of logarithms loses the small arguments' digits); at the
 * branch points, where f' is infinite and the functions finite, the derivative is taken as 0 so that the
 * value stays. Double and float only: a long double's operands come in memory (complex_operands). */
static LLVMValueRef inverse_function(LLVMBuilderRef b, LLVMValueRef call, ComplexOp op, LLVMTypeRef rt, LLVMValueRef x[2]) {
  LLVMTypeRef t = LLVMTypeOf(x[0]);
  LLVMValueRef a0 = without_derivative(b, x[0]), b0 = without_derivative(b, x[1]), args[2] = {a0, b0};
  unsigned nargs = 2;
  if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(call, 0))) == LLVMVectorTypeKind) {
    args[0] = complex_value(b, LLVMTypeOf(LLVMGetOperand(call, 0)), a0, b0);
    nargs = 1;
  }
  LLVMValueRef v = LLVMBuildCall2(b, LLVMGetCalledFunctionType(call), LLVMGetCalledValue(call), args, nargs, "");
  LLVMValueRef vre, vim;
  if (LLVMGetTypeKind(rt) == LLVMStructTypeKind) {
    vre = LLVMBuildExtractValue(b, v, 0, "");
    vim = LLVMBuildExtractValue(b, v, 1, "");
  } else {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(t));
    vre = LLVMBuildExtractElement(b, v, LLVMConstInt(i32, 0, 0), "");
    vim = LLVMBuildExtractElement(b, v, LLVMConstInt(i32, 1, 0), "");
  }
  LLVMValueRef one = LLVMConstReal(t, 1), zero = LLVMConstReal(t, 0), p = x[0], q = x[1], re, im, sre, sim;
  LLVMValueRef z2re, z2im; /* z^2 */
  complex_mul(b, p, q, p, q, &z2re, &z2im);
  bool minus = op == CX_ASIN || op == CX_ACOS || op == CX_ATANH; /* 1 - z^2 rather than 1 + z^2 */
  LLVMValueRef wre = minus ? LLVMBuildFSub(b, one, z2re, "") : LLVMBuildFAdd(b, one, z2re, "");
  LLVMValueRef wim = minus ? LLVMBuildFNeg(b, z2im, "") : z2im;
  if (op == CX_ACOSH) { /* sqrt(z - 1) sqrt(z + 1) */
    LLVMValueRef mre, mim, pre, pim;
    complex_sqrt(b, t, LLVMBuildFSub(b, p, one, ""), q, &mre, &mim);
    complex_sqrt(b, t, LLVMBuildFAdd(b, p, one, ""), q, &pre, &pim);
    complex_mul(b, mre, mim, pre, pim, &wre, &wim);
  } else if (op != CX_ATAN && op != CX_ATANH) {
    complex_sqrt(b, t, wre, wim, &sre, &sim);
    wre = sre, wim = sim;
  }
  complex_inverse(b, wre, wim, &re, &im);
  if (op == CX_ACOS) re = LLVMBuildFNeg(b, re, ""), im = LLVMBuildFNeg(b, im, "");
  LLVMValueRef finite = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOLT, real_call(b, "fabs", t, &re, 1), LLVMConstReal(t, INFINITY), ""),
                                     LLVMBuildFCmp(b, LLVMRealOLT, real_call(b, "fabs", t, &im, 1), LLVMConstReal(t, INFINITY), ""), "");
  re = LLVMBuildSelect(b, finite, re, zero, "");
  im = LLVMBuildSelect(b, finite, im, zero, "");
  LLVMValueRef dre = LLVMBuildFSub(b, p, a0, ""), dim = LLVMBuildFSub(b, q, b0, ""), tre, tim; /* zero */
  complex_mul(b, re, im, dre, dim, &tre, &tim);
  return complex_value(b, rt, LLVMBuildFAdd(b, vre, tre, ""), LLVMBuildFAdd(b, vim, tim, ""));
}

/* The open-coded helper at the builder, its operands the original's (mapped with the others). */
static LLVMValueRef open_code(LLVMBuilderRef b, LLVMValueRef call, ComplexOp op) {
  LLVMValueRef x[4];
  complex_operands(b, call, x);
  LLVMTypeRef rt = LLVMTypeOf(call), t = LLVMTypeOf(x[0]);
  LLVMValueRef re, im, a = x[0], bb = x[1], two = LLVMConstReal(t, 2);
  switch (op) {
  case CX_MUL: /* (a + bi)(c + di) */
    re = LLVMBuildFSub(b, LLVMBuildFMul(b, a, x[2], ""), LLVMBuildFMul(b, bb, x[3], ""), "");
    im = LLVMBuildFAdd(b, LLVMBuildFMul(b, a, x[3], ""), LLVMBuildFMul(b, bb, x[2], ""), "");
    return complex_value(b, rt, re, im);
  case CX_DIV: {
    LLVMValueRef den = LLVMBuildFAdd(b, LLVMBuildFMul(b, x[2], x[2], ""), LLVMBuildFMul(b, x[3], x[3], ""), "");
    re = LLVMBuildFAdd(b, LLVMBuildFMul(b, a, x[2], ""), LLVMBuildFMul(b, bb, x[3], ""), "");
    im = LLVMBuildFSub(b, LLVMBuildFMul(b, bb, x[2], ""), LLVMBuildFMul(b, a, x[3], ""), "");
    return complex_value(b, rt, LLVMBuildFDiv(b, re, den, ""), LLVMBuildFDiv(b, im, den, ""));
  }
  case CX_EXP:
    complex_exp(b, t, a, bb, &re, &im);
    return complex_value(b, rt, re, im);
  case CX_POW: {
    /* z^w = e^(w log z), and 0 for z = 0 (where log z is -inf). There the derivative w z^(w-1) is 0 for
       Re w > 1 and 1 for w = 1 (z itself is taken then), and log z is taken of 1 instead: its adjoint,
       0 times an infinite partial, was NaN. For Re w < 1 it is infinite, and stays NaN. */
    LLVMValueRef zero = LLVMConstReal(t, 0), one = LLVMConstReal(t, 1);
    LLVMValueRef at_zero = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, a, zero, ""), LLVMBuildFCmp(b, LLVMRealOEQ, bb, zero, ""), "");
    LLVMValueRef w_one = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, x[2], one, ""), LLVMBuildFCmp(b, LLVMRealOEQ, x[3], zero, ""), "");
    LLVMValueRef flat = LLVMBuildOr(b, w_one, LLVMBuildFCmp(b, LLVMRealOGT, x[2], one, ""), "");
    LLVMValueRef ra = LLVMBuildSelect(b, LLVMBuildAnd(b, at_zero, flat, ""), one, a, "");
    LLVMValueRef r2[2] = {ra, bb}, yx[2] = {bb, ra};
    LLVMValueRef l = real_call(b, "hypot", t, r2, 2);
    l = real_call(b, "log", t, &l, 1);
    LLVMValueRef th = real_call(b, "atan2", t, yx, 2);
    LLVMValueRef p = LLVMBuildFSub(b, LLVMBuildFMul(b, x[2], l, ""), LLVMBuildFMul(b, x[3], th, ""), "");
    LLVMValueRef q = LLVMBuildFAdd(b, LLVMBuildFMul(b, x[3], l, ""), LLVMBuildFMul(b, x[2], th, ""), "");
    complex_exp(b, t, p, q, &re, &im);
    LLVMValueRef zre = LLVMBuildSelect(b, w_one, a, zero, ""), zim = LLVMBuildSelect(b, w_one, bb, zero, "");
    return complex_value(b, rt, LLVMBuildSelect(b, at_zero, zre, re, ""), LLVMBuildSelect(b, at_zero, zim, im, ""));
  }
  case CX_SIN: /* sin a cosh b + i cos a sinh b */
    return complex_value(b, rt, product(b, t, "sin", a, "cosh", bb), product(b, t, "cos", a, "sinh", bb));
  case CX_COS: /* cos a cosh b - i sin a sinh b */
    return complex_value(b, rt, product(b, t, "cos", a, "cosh", bb), LLVMBuildFNeg(b, product(b, t, "sin", a, "sinh", bb), ""));
  case CX_SINH: /* sinh a cos b + i cosh a sin b */
    return complex_value(b, rt, product(b, t, "sinh", a, "cos", bb), product(b, t, "cosh", a, "sin", bb));
  case CX_COSH: /* cosh a cos b + i sinh a sin b */
    return complex_value(b, rt, product(b, t, "cosh", a, "cos", bb), product(b, t, "sinh", a, "sin", bb));
  case CX_TAN:    /* (sin 2a + i sinh 2b) / (cos 2a + cosh 2b) */
  case CX_TANH: { /* (sinh 2a + i sin 2b) / (cosh 2a + cos 2b) */
    LLVMValueRef a2 = LLVMBuildFMul(b, two, a, ""), b2 = LLVMBuildFMul(b, two, bb, "");
    bool tan = op == CX_TAN;
    LLVMValueRef den = LLVMBuildFAdd(b, real_call(b, tan ? "cos" : "cosh", t, &a2, 1), real_call(b, tan ? "cosh" : "cos", t, &b2, 1), "");
    re = LLVMBuildFDiv(b, real_call(b, tan ? "sin" : "sinh", t, &a2, 1), den, "");
    im = LLVMBuildFDiv(b, real_call(b, tan ? "sinh" : "sin", t, &b2, 1), den, "");
    return complex_value(b, rt, re, im);
  }
  case CX_ABS: return real_call(b, "hypot", t, x, 2);
  case CX_ARG: {
    LLVMValueRef yx[2] = {bb, a};
    return real_call(b, "atan2", t, yx, 2);
  }
  case CX_LOG: {
    LLVMValueRef r = real_call(b, "hypot", t, x, 2), yx[2] = {bb, a};
    return complex_value(b, rt, real_call(b, "log", t, &r, 1), real_call(b, "atan2", t, yx, 2));
  }
  case CX_SQRT:
    complex_sqrt(b, t, a, bb, &re, &im);
    return complex_value(b, rt, re, im);
  case CX_ASIN: case CX_ACOS: case CX_ATAN: case CX_ASINH: case CX_ACOSH: case CX_ATANH:
    return inverse_function(b, call, op, rt, x);
  default: return NULL;
  }
}

/* Which helpers the copy can open-code: those whose complex operands come as the ABI passes them on x86-64
 * (a pair of scalars; a float function's as one vector of two; a long double one's as a pair in memory). */
bool ad_body_open_codes(LLVMValueRef inst) {
  ComplexOp op = complex_op(inst);
  LLVMValueRef x[4];
  if (op >= CX_ASIN && (complex_operands(NULL, inst, x) != 2 || complex_in_memory(inst, 0))) return false;
  return op != CX_NONE && complex_operands(NULL, inst, x) == (op <= CX_POW ? 4u : 2u);
}

LLVMValueRef ad_body_original(LLVMValueRef fn) {
  size_t n;
  const char *name = LLVMGetValueName2(fn, &n);
  if (n <= 5 || strcmp(name + n - 5, ".body") || LLVMGetLinkage(fn) != LLVMInternalLinkage) return fn;
  char *base = xasprintf("%.*s", (int)(n - 5), name);
  LLVMValueRef orig = LLVMGetNamedFunction(LLVMGetGlobalParent(fn), base);
  free(base);
  return orig && LLVMGlobalGetValueType(orig) == LLVMGlobalGetValueType(fn) ? orig : fn;
}

LLVMValueRef ad_body(AdModule *ad, LLVMValueRef fn) {
  if (LLVMIsDeclaration(fn) || !needs_copy(fn)) return fn;
  char *key = xasprintf("body|%s", LLVMGetValueName(fn));
  LLVMValueRef copy = ad_find_generated(ad, key);
  if (copy) {
    free(key);
    return copy;
  }
  char *name = xasprintf("%s.body", LLVMGetValueName(fn));
  copy = LLVMAddFunction(ad->mod, name, LLVMGlobalGetValueType(fn));
  free(name);
  LLVMSetLinkage(copy, LLVMInternalLinkage);
  LLVMSetFunctionCallConv(copy, LLVMGetFunctionCallConv(fn));
  ir_copy_attributes(fn, copy, LLVMAttributeFunctionIndex);
  ir_copy_attributes(fn, copy, LLVMAttributeReturnIndex);
  for (unsigned p = 0, np = LLVMCountParams(fn); p < np; p++) ir_copy_attributes(fn, copy, p + 1);
  if (LLVMGetSubprogram(fn)) LLVMSetSubprogram(copy, LLVMGetSubprogram(fn));
  ad_remember_generated(ad, key, copy);
  free(key);

  /* the blocks reached without an unwind edge, in the original's order; a doomed one ends the path */
  ValueMap vm, reached, doomed;
  vmap_init(&vm);
  vmap_init(&reached);
  vmap_init(&doomed);
  ad_body_doomed_blocks(fn, &doomed);
  VEC(LLVMBasicBlockRef) stack = {0};
  vec_push(&stack, LLVMGetEntryBasicBlock(fn));
  vmap_put(&reached, LLVMBasicBlockAsValue(LLVMGetEntryBasicBlock(fn)), fn);
  while (stack.len) {
    LLVMBasicBlockRef bb = stack.data[--stack.len];
    LLVMValueRef t = vmap_has(&doomed, LLVMBasicBlockAsValue(bb)) ? NULL : LLVMGetBasicBlockTerminator(bb);
    for (unsigned i = 0, n = t ? normal_successors(t) : 0; i < n; i++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, i);
      if (vmap_has(&reached, LLVMBasicBlockAsValue(s))) continue;
      vmap_put(&reached, LLVMBasicBlockAsValue(s), fn);
      vec_push(&stack, s);
    }
  }
  vec_free(&stack);
  for (unsigned p = 0, np = LLVMCountParams(fn); p < np; p++) vmap_put(&vm, LLVMGetParam(fn, p), LLVMGetParam(copy, p));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    if (vmap_has(&reached, LLVMBasicBlockAsValue(bb)))
      vmap_put(&vm, LLVMBasicBlockAsValue(bb), LLVMBasicBlockAsValue(LLVMAppendBasicBlockInContext(ad->ctx, copy, "")));

  /* every instruction copied with the original's operands, then the operands mapped (a loop's values are
     used before the copy of their definition exists); phis filled last, from the blocks that remain */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ad->ctx);
  VEC(LLVMValueRef) copied = {0}, phis = {0}, made = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    if (!vmap_has(&reached, LLVMBasicBlockAsValue(bb))) continue;
    LLVMPositionBuilderAtEnd(b, LLVMValueAsBasicBlock(vmap_get(&vm, LLVMBasicBlockAsValue(bb))));
    if (vmap_has(&doomed, LLVMBasicBlockAsValue(bb))) {
      thrown(b, ad, vmap_get(&doomed, LLVMBasicBlockAsValue(bb)));
      continue;
    }
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      size_t len;
      const char *iname = LLVMGetValueName2(i, &len);
      bool reads = library_read_rewrites(i);
      if (reads || ad_body_open_codes(i)) { /* new instructions, their operands mapped below */
        LLVMValueRef last = LLVMGetLastInstruction(LLVMGetInsertBlock(b));
        vmap_put(&vm, i, reads ? library_read_rewrite(b, LLVMGetFirstBasicBlock(copy), i) : open_code(b, i, complex_op(i)));
        for (LLVMValueRef k = last ? LLVMGetNextInstruction(last) : LLVMGetFirstInstruction(LLVMGetInsertBlock(b)); k;
             k = LLVMGetNextInstruction(k))
          vec_push(&made, k);
        continue;
      }
      if (dead_store(i)) continue;
      if (selects_pointers(i)) { /* operands mapped with the made ones */
        LLVMValueRef c = LLVMBuildSelect(b, LLVMGetOperand(i, 0), LLVMGetOperand(LLVMGetOperand(i, 1), 0),
                                         LLVMGetOperand(LLVMGetOperand(i, 2), 0), iname);
        vmap_put(&vm, i, c);
        vec_push(&made, c);
        continue;
      }
      if (LLVMIsAIntToPtrInst(i) && (loads_pointer(LLVMGetOperand(i, 0)) || selects_pointers(LLVMGetOperand(i, 0)))) {
        /* the load or the choice gave the pointer */
        vmap_put(&vm, i, vmap_get(&vm, LLVMGetOperand(i, 0)));
        continue;
      }
      if (loads_pointer(i)) {
        LLVMValueRef c = LLVMBuildLoad2(b, LLVMPointerTypeInContext(ad->ctx, 0), LLVMGetOperand(i, 0), iname);
        LLVMSetAlignment(c, LLVMGetAlignment(i));
        vmap_put(&vm, i, c);
        vec_push(&made, c);
        continue;
      }
      if (LLVMIsAPHINode(i)) {
        vmap_put(&vm, i, LLVMBuildPhi(b, LLVMTypeOf(i), iname));
        vec_push(&phis, i);
      } else if (LLVMGetInstructionOpcode(i) == LLVMInvoke) { /* operands mapped with the others */
        vmap_put(&vm, i, call_like(b, i));
        LLVMBuildBr(b, LLVMValueAsBasicBlock(vmap_get(&vm, LLVMBasicBlockAsValue(LLVMGetNormalDest(i)))));
        vec_push(&copied, i);
      } else {
        LLVMValueRef c = LLVMInstructionClone(i);
        LLVMInsertIntoBuilderWithName(b, c, LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind ? "" : iname);
        vmap_put(&vm, i, c);
        vec_push(&copied, i);
      }
    }
  }
  for (size_t k = 0; k < copied.len; k++) {
    LLVMValueRef c = vmap_get(&vm, copied.data[k]);
    for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(c); i < n; i++) {
      LLVMValueRef op = LLVMGetOperand(c, i), m = vmap_get(&vm, op);
      if (m) LLVMSetOperand(c, i, m);
    }
    LLVMValueRef p = stored_pointer(copied.data[k]);
    if (p) LLVMSetOperand(c, 0, vmap_get(&vm, p) ? vmap_get(&vm, p) : p);
  }
  for (size_t k = 0; k < made.len; k++)
    for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(made.data[k]); i < n; i++) {
      LLVMValueRef m = vmap_get(&vm, LLVMGetOperand(made.data[k], i));
      if (m) LLVMSetOperand(made.data[k], i, m);
    }
  for (size_t k = 0; k < phis.len; k++) {
    LLVMValueRef phi = phis.data[k], c = vmap_get(&vm, phi);
    for (unsigned i = 0, n = LLVMCountIncoming(phi); i < n; i++) {
      LLVMValueRef from = LLVMBasicBlockAsValue(LLVMGetIncomingBlock(phi, i));
      if (!vmap_has(&reached, from)) continue;
      LLVMValueRef v = LLVMGetIncomingValue(phi, i), m = vmap_get(&vm, v);
      LLVMBasicBlockRef block = LLVMValueAsBasicBlock(vmap_get(&vm, from));
      LLVMAddIncoming(c, m ? &m : &v, &block, 1);
    }
  }
  vec_free(&copied);
  vec_free(&phis);
  vec_free(&made);
  LLVMDisposeBuilder(b);
  vmap_free(&vm);
  vmap_free(&reached);
  vmap_free(&doomed);
  return copy;
}

void ad_body_drop(AdModule *ad) {
  size_t kept = 0;
  for (size_t i = 0; i < ad->generated.len; i++) {
    Generated *g = &ad->generated.data[i];
    if (strncmp(g->key, "body|", 5) || LLVMGetFirstUse(g->fn)) {
      ad->generated.data[kept++] = *g;
      continue;
    }
    LLVMDeleteFunction(g->fn);
    free(g->key);
  }
  ad->generated.len = kept;
}
