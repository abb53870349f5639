/* Matching calls to rules, and compiling a rule's postfix expressions to IR. */
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

const MathRule *rule_for_name(const char *name) {
  if (strncmp(name, "llvm.", 5) == 0) {
    for (unsigned i = 0; i < math_rule_count; i++) {
      const char *in = math_rules[i].intrinsic;
      size_t n = in ? strlen(in) : 0;
      /* the type suffix after a dot ("llvm.sin.f64"); x86's names have none, or a width ("max.pd.256") */
      if (in && strncmp(name, in, n) == 0 && (name[n] == '.' || (!name[n] && !strncmp(in, "llvm.x86.", 9))))
        return &math_rules[i];
    }
    return NULL;
  }
  size_t len = strlen(name);
  for (unsigned i = 0; i < math_rule_count; i++) {
    const char *lib = math_rules[i].libm;
    if (!lib) continue;
    size_t n = strlen(lib);
    if (strncmp(name, lib, n) != 0) continue;
    if (len == n || (len == n + 1 && (name[n] == 'f' || name[n] == 'l'))) return &math_rules[i];
  }
  return NULL;
}

const MathRule *rule_for_call(LLVMValueRef call) {
  LLVMValueRef fn = ir_called_function(call);
  if (!fn) return NULL;
  /* A function the user defined with a libm name is differentiated from its body instead. */
  if (!LLVMIsDeclaration(fn)) return NULL;
  const MathRule *r = rule_for_name(LLVMGetValueName(fn));
  if (!r || ir_num_call_args(call) != r->nargs) return NULL;
  if (!ir_is_fp_or_fp_vector(LLVMTypeOf(call))) return NULL;
  return r;
}

LLVMTypeRef rule_written_type(const MathRule *rule, LLVMValueRef call) {
  switch (rule->writes) {
  case WRITES_INT: return LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(call))); /* C's int */
  case WRITES_RESULT_TYPE: return LLVMTypeOf(call);
  default: return NULL;
  }
}

/* ---- the expression compiler ---- */

enum { STACK_MAX = 16 };

typedef struct {
  LLVMBuilderRef b;
  LLVMTypeRef type; /* every value in an expression has this type (or i1, or an integer argument) */
  LLVMValueRef stack[STACK_MAX];
  int depth;
  bool failed;
  LLVMFastMathFlags flags; /* the primal call's, for every float operation (-ffast-math) */
} Machine;

/* v, an operation of the expression, with the primal call's fast-math flags: under -ffast-math its
 * pow(s, 5.0) becomes multiplications as the primal's pow(s, 6.0) did, not a call of libm's pow. */
static LLVMValueRef flagged(Machine *m, LLVMValueRef v) {
  if (m->flags && LLVMIsAInstruction(v) && LLVMCanValueUseFastMathFlags(v)) LLVMSetFastMathFlags(v, m->flags);
  return v;
}

static void push(Machine *m, LLVMValueRef v) {
  if (m->depth == STACK_MAX || !v)
    m->failed = true;
  else
    m->stack[m->depth++] = v;
}

static LLVMValueRef pop(Machine *m) {
  if (m->depth == 0) {
    m->failed = true;
    return LLVMGetUndef(m->type);
  }
  return m->stack[--m->depth];
}

static LLVMValueRef intrinsic1(Machine *m, const char *name, LLVMValueRef a) {
  return flagged(m, ir_call_intrinsic(m->b, name, &m->type, 1, &a, 1));
}

static LLVMValueRef intrinsic2(Machine *m, const char *name, LLVMValueRef a, LLVMValueRef c) {
  LLVMValueRef args[2] = {a, c};
  return flagged(m, ir_call_intrinsic(m->b, name, &m->type, 1, args, 2));
}

/* llvm.powi: a float to an integer power (which the back end makes multiplications where it is constant). */
static LLVMValueRef powi(Machine *m, LLVMValueRef a, LLVMValueRef n) {
  LLVMValueRef args[2] = {a, n};
  LLVMTypeRef types[2] = {m->type, LLVMTypeOf(n)};
  return flagged(m, ir_call_intrinsic(m->b, "llvm.powi", types, 2, args, 2));
}

/* A libm function without an intrinsic (sinh, cosh, the Bessel functions), or the runtime's (digamma):
 * called per element for vectors. */
static LLVMValueRef libm1(Machine *m, const char *base, LLVMValueRef a) {
  LLVMTypeRef scalar = ir_scalar_type(m->type);
  const char *suffix = LLVMGetTypeKind(scalar) == LLVMFloatTypeKind    ? "f"
                       : LLVMGetTypeKind(scalar) == LLVMX86_FP80TypeKind ? "l"
                                                                         : "";
  char name[32];
  snprintf(name, sizeof name, "%s%s", base, suffix);
  LLVMTypeRef fty = LLVMFunctionType(scalar, &scalar, 1, 0);
  if (LLVMGetTypeKind(m->type) != LLVMVectorTypeKind) return ir_call_named(m->b, name, fty, &a, 1);
  LLVMContextRef c = LLVMGetTypeContext(scalar);
  LLVMValueRef out = LLVMGetUndef(m->type);
  for (unsigned i = 0, n = LLVMGetVectorSize(m->type); i < n; i++) {
    LLVMValueRef idx = ir_const_i32(c, i);
    LLVMValueRef e = LLVMBuildExtractElement(m->b, a, idx, "");
    out = LLVMBuildInsertElement(m->b, out, ir_call_named(m->b, name, fty, &e, 1), idx, "");
  }
  return out;
}

/* libm's Bessel function `base` (jn, yn) of integer order n (a scalar) at x, per element for vectors. */
static LLVMValueRef libm_order(Machine *m, const char *base, LLVMValueRef n, LLVMValueRef x) {
  LLVMTypeRef scalar = ir_scalar_type(m->type);
  LLVMTypeKind k = LLVMGetTypeKind(scalar);
  char name[8];
  snprintf(name, sizeof name, "%s%s", base, k == LLVMFloatTypeKind ? "f" : k == LLVMX86_FP80TypeKind ? "l" : "");
  LLVMTypeRef params[2] = {LLVMTypeOf(n), scalar};
  LLVMTypeRef fty = LLVMFunctionType(scalar, params, 2, 0);
  LLVMValueRef args[2] = {n, x};
  if (LLVMGetTypeKind(m->type) != LLVMVectorTypeKind) return ir_call_named(m->b, name, fty, args, 2);
  LLVMContextRef c = LLVMGetTypeContext(scalar);
  LLVMValueRef out = LLVMGetUndef(m->type);
  for (unsigned i = 0, len = LLVMGetVectorSize(m->type); i < len; i++) {
    LLVMValueRef idx = ir_const_i32(c, i);
    args[1] = LLVMBuildExtractElement(m->b, x, idx, "");
    out = LLVMBuildInsertElement(m->b, out, ir_call_named(m->b, name, fty, args, 2), idx, "");
  }
  return out;
}

static LLVMValueRef to_fp(Machine *m, LLVMValueRef v) {
  if (ir_is_int(ir_scalar_type(LLVMTypeOf(v)))) {
    if (LLVMGetTypeKind(m->type) == LLVMVectorTypeKind && LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind) {
      /* a scalar integer argument (the exponent of powi) meets vector floats: splat it */
      LLVMValueRef s = LLVMBuildSIToFP(m->b, v, ir_scalar_type(m->type), "");
      LLVMValueRef out = LLVMGetUndef(m->type);
      LLVMContextRef c = LLVMGetTypeContext(m->type);
      for (unsigned i = 0, n = LLVMGetVectorSize(m->type); i < n; i++)
        out = LLVMBuildInsertElement(m->b, out, s, ir_const_i32(c, i), "");
      return out;
    }
    return LLVMBuildSIToFP(m->b, v, m->type, "");
  }
  return v;
}

static void step(Machine *m, const char *tok, LLVMValueRef *args, unsigned nargs, LLVMValueRef result) {
  LLVMBuilderRef b = m->b;
  if (tok[0] == 'x' && tok[1] >= '0' && tok[1] <= '2' && !tok[2]) {
    unsigned i = (unsigned)(tok[1] - '0');
    push(m, i < nargs ? args[i] : NULL);
  } else if (!strcmp(tok, "r")) {
    push(m, result);
  } else if ((tok[0] >= '0' && tok[0] <= '9') || (tok[0] == '-' && tok[1] >= '0' && tok[1] <= '9')) {
    char *end;
    double x = strtod(tok, &end);
    push(m, *end ? NULL : ir_const_fp(m->type, x));
  } else if (!strcmp(tok, "+") || !strcmp(tok, "-") || !strcmp(tok, "*") || !strcmp(tok, "/")) {
    LLVMValueRef rhs = pop(m), lhs = pop(m);
    switch (tok[0]) {
    case '+': push(m, flagged(m, LLVMBuildFAdd(b, lhs, rhs, ""))); break;
    case '-': push(m, flagged(m, LLVMBuildFSub(b, lhs, rhs, ""))); break;
    case '*': push(m, flagged(m, LLVMBuildFMul(b, lhs, rhs, ""))); break;
    default: push(m, flagged(m, LLVMBuildFDiv(b, lhs, rhs, ""))); break;
    }
  } else if (!strcmp(tok, "neg")) {
    push(m, flagged(m, LLVMBuildFNeg(b, pop(m), "")));
  } else if (!strcmp(tok, "sqrt") || !strcmp(tok, "exp") || !strcmp(tok, "log") || !strcmp(tok, "sin") ||
             !strcmp(tok, "cos") || !strcmp(tok, "trunc") || !strcmp(tok, "fabs") || !strcmp(tok, "roundeven")) {
    char name[24];
    snprintf(name, sizeof name, "llvm.%s", tok);
    push(m, intrinsic1(m, name, pop(m)));
  } else if (!strcmp(tok, "sinh") || !strcmp(tok, "cosh") || !strcmp(tok, "j0") || !strcmp(tok, "j1") ||
             !strcmp(tok, "y0") || !strcmp(tok, "y1")) {
    push(m, libm1(m, tok, pop(m)));
  } else if (!strcmp(tok, "inc") || !strcmp(tok, "dec")) {
    /* an integer argument's neighbour (the order of jn) */
    LLVMValueRef n = pop(m);
    if (!ir_is_int(LLVMTypeOf(n))) {
      m->failed = true;
      return;
    }
    push(m, LLVMBuildAdd(b, n, LLVMConstInt(LLVMTypeOf(n), tok[0] == 'i' ? 1 : (unsigned long long)-1, 1), ""));
  } else if (!strcmp(tok, "jn") || !strcmp(tok, "yn")) {
    LLVMValueRef x = pop(m), n = pop(m);
    if (!ir_is_int(LLVMTypeOf(n))) {
      m->failed = true;
      return;
    }
    push(m, libm_order(m, tok, n, x));
  } else if (!strcmp(tok, "digamma") || !strcmp(tok, "trigamma") || !strcmp(tok, "tetragamma")) {
    const char *fn = tok[0] == 'd' ? "__parad_digamma" : tok[1] == 'r' ? "__parad_trigamma" : "__parad_tetragamma";
    push(m, libm1(m, fn, pop(m))); /* runtime/special.c */
  } else if (!strcmp(tok, "powi")) { /* x n powi: n an integer argument (a scalar for vectors too) */
    LLVMValueRef n = pop(m), x = pop(m);
    if (!ir_is_int(LLVMTypeOf(n))) {
      m->failed = true;
      return;
    }
    push(m, powi(m, x, n));
  } else if (!strcmp(tok, "pow") || !strcmp(tok, "copysign")) {
    LLVMValueRef rhs = pop(m), lhs = pop(m);
    push(m, intrinsic2(m, tok[0] == 'p' ? "llvm.pow" : "llvm.copysign", lhs, rhs));
  } else if (!strcmp(tok, "oeq") || !strcmp(tok, "une") || !strcmp(tok, "olt") || !strcmp(tok, "ole")) {
    LLVMValueRef rhs = pop(m), lhs = pop(m);
    LLVMRealPredicate p = !strcmp(tok, "oeq") ? LLVMRealOEQ : !strcmp(tok, "une") ? LLVMRealUNE
                        : !strcmp(tok, "olt") ? LLVMRealOLT : LLVMRealOLE;
    push(m, LLVMBuildFCmp(b, p, lhs, rhs, ""));
  } else if (!strcmp(tok, "sel")) {
    LLVMValueRef no = pop(m), yes = pop(m), cond = pop(m);
    push(m, LLVMBuildSelect(b, cond, yes, no, ""));
  } else if (!strcmp(tok, "itofp")) {
    push(m, to_fp(m, pop(m)));
  } else {
    m->failed = true;
  }
}

static LLVMValueRef run(LLVMBuilderRef b, LLVMTypeRef type, const char *expr, LLVMValueRef *args,
                        unsigned nargs, LLVMValueRef result, LLVMFastMathFlags flags, bool *failed) {
  Machine m = {.b = b, .type = type, .flags = flags};
  char tok[32];
  for (const char *p = expr; *p && !m.failed;) {
    while (*p == ' ') p++;
    size_t n = strcspn(p, " ");
    if (!n) break;
    if (n >= sizeof tok) {
      m.failed = true;
      break;
    }
    memcpy(tok, p, n);
    tok[n] = 0;
    step(&m, tok, args, nargs, result);
    p += n;
  }
  if (m.depth != 1) m.failed = true;
  *failed = m.failed;
  return m.failed ? NULL : m.stack[0];
}

LLVMValueRef rule_carry(LLVMBuilderRef b, const MathRule *rule, LLVMValueRef partial, LLVMValueRef d, bool strong_zero) {
  LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(d));
  if (rule->chooses) return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealONE, partial, zero, ""), d, zero, "");
  LLVMValueRef carried = LLVMBuildFMul(b, d, partial, "");
  return rule->unbounded || strong_zero ? rule_zero_where_zero(b, d, carried) : carried;
}

LLVMValueRef rule_zero_where_zero(LLVMBuilderRef b, LLVMValueRef d, LLVMValueRef carried) {
  LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(d));
  return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, d, zero, ""), zero, carried, "");
}

LLVMValueRef rule_emit_partial(LLVMBuilderRef b, const MathRule *rule, unsigned i, LLVMValueRef *args,
                               LLVMValueRef result, LLVMValueRef like) {
  const char *expr = i < rule->nargs ? rule->partial[i] : NULL;
  if (!expr || !strcmp(expr, "0")) return NULL;
  bool failed;
  LLVMFastMathFlags flags = like && LLVMIsAInstruction(like) && LLVMCanValueUseFastMathFlags(like) ? LLVMGetFastMathFlags(like) : 0;
  LLVMValueRef v = run(b, LLVMTypeOf(result), expr, args, rule->nargs, result, flags, &failed);
  if (failed) {
    /* The table is checked by rules_self_check in the test suite; reaching this is a bug in it. */
    fprintf(stderr, "parad: internal error: bad derivative rule for %s\n",
            rule->libm ? rule->libm : rule->intrinsic);
    abort();
  }
  return v;
}

bool rule_partial_uses(const MathRule *rule, unsigned i, int k) {
  const char *expr = i < rule->nargs ? rule->partial[i] : NULL;
  if (!expr) return false;
  char tok[3] = {k == 'r' ? 'r' : 'x', k == 'r' ? 0 : (char)('0' + k), 0};
  size_t n = strlen(tok);
  for (const char *p = expr; (p = strstr(p, tok)); p += n)
    if ((p == expr || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return true;
  return false;
}

int rules_self_check(void) {
  LLVMContextRef c = LLVMContextCreate();
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("rules", c);
  LLVMTypeRef d = LLVMDoubleTypeInContext(c), i32 = LLVMInt32TypeInContext(c);
  int bad = 0;
  for (unsigned k = 0; k < math_rule_count; k++) {
    const MathRule *r = &math_rules[k];
    LLVMTypeRef params[3] = {d, d, d};
    for (unsigned a = 0; a < r->nargs; a++)
      if (!r->partial[a]) params[a] = i32;
    LLVMValueRef fn = LLVMAddFunction(m, "probe", LLVMFunctionType(d, params, r->nargs, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, fn, "entry"));
    LLVMValueRef args[3];
    for (unsigned a = 0; a < r->nargs; a++) args[a] = LLVMGetParam(fn, a);
    LLVMValueRef res = LLVMBuildFAdd(b, args[0], LLVMConstReal(d, 1), "r");
    for (unsigned a = 0; a < r->nargs; a++) {
      if (!r->partial[a] || !strcmp(r->partial[a], "0")) continue;
      bool failed;
      run(b, d, r->partial[a], args, r->nargs, res, 0, &failed);
      if (failed) {
        fprintf(stderr, "bad rule: %s argument %u: %s\n", r->libm ? r->libm : r->intrinsic, a,
                r->partial[a]);
        bad++;
      }
    }
    LLVMBuildRet(b, res);
    LLVMDisposeBuilder(b);
    LLVMDeleteFunction(fn);
  }
  LLVMDisposeModule(m);
  LLVMContextDispose(c);
  return bad;
}
