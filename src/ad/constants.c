/* Shadows of constants (see constants.h). */
#include "ad/constants.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "ad/registered.h"
#include "ad/request.h"
#include "ir/ir.h"

static LLVMValueRef stripped(LLVMValueRef v) { return v ? ir_strip_pointer_casts(v) : NULL; }

static bool constant_global(LLVMValueRef g) {
  return LLVMIsAGlobalVariable(g) && LLVMIsGlobalConstant(g) && LLVMGetInitializer(g) && !LLVMIsExternallyInitialized(g);
}

/* The runtime's current tape, read by reverse-mode derivatives that forward mode differentiates (a
 * Hessian-vector product): its shadow is the current tape's tangent twin (runtime/tape.h). */
bool ad_is_current_tape(LLVMValueRef g) {
  return g && LLVMIsAGlobalVariable(g) && !strcmp(LLVMGetValueName(g), "__parad_rt_current");
}

bool ad_is_reverse_sweep(LLVMValueRef fn) {
  return fn && LLVMIsAFunction(fn) && !strncmp(LLVMGetValueName(fn), "reverse.", 8); /* no C name has a dot */
}

/* While derivatives are generated (ad_global_shadows_begin), the globals found to have a shadow, and the
 * shadows made of them, per use: decided once, before the generated functions use the globals too. */
static ValueList decided, made[2];
static bool deciding;

static bool eligible(LLVMValueRef g) {
  if (!g || !LLVMIsAGlobalVariable(g) || LLVMIsGlobalConstant(g) || !LLVMGetInitializer(g) || LLVMIsExternallyInitialized(g) ||
      LLVMIsThreadLocal(g) || registered_inactive_memory(g))
    return false;
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  return ir_contains_fp(t) && !ir_contains_ptr(t);
}

/* The one function of `reached` whose instructions use v (through constant addresses into it), else NULL
 * (none, or several: *several set). */
static LLVMValueRef user_function(LLVMValueRef v, const ValueMap *reached, bool *several) {
  LLVMValueRef found = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u && !*several; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u), fn = NULL;
    if (LLVMIsAInstruction(user)) fn = LLVMGetInstructionParent(user) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) : NULL;
    else if (LLVMIsAConstantExpr(user)) fn = user_function(user, reached, several);
    else *several = true; /* a global's initializer holds its address */
    if (fn && !vmap_has(reached, fn)) fn = NULL; /* the program's own calls (a test's finite differences) */
    if (fn && found && fn != found) *several = true;
    if (fn) found = fn;
  }
  return *several ? NULL : found;
}

/* The functions m's requests reach: theirs, and every function their code names (callees, regions' and
 * tasks' functions; through a pointer, any whose address is taken). */
static void find_reached(LLVMModuleRef m, ValueMap *reached) {
  ValueList stack = {0};
  bool indirect = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && !strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        for (unsigned i = 0, n = ir_is_call(LLVMGetUser(u)) ? ir_num_call_args(LLVMGetUser(u)) : 0; i < n; i++) {
          LLVMValueRef a = ir_strip_pointer_casts(LLVMGetArgOperand(LLVMGetUser(u), i));
          if (LLVMIsAFunction(a)) vec_push(&stack, a);
        }
  while (stack.len) {
    LLVMValueRef f = stack.data[--stack.len];
    if (LLVMIsDeclaration(f) || vmap_has(reached, f)) continue;
    vmap_put(reached, f, f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        indirect |= ir_is_call_site(i) && !ir_called_function(i);
        for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(i); k < n; k++) {
          LLVMValueRef op = LLVMGetOperand(i, k);
          if (op && LLVMIsAConstantExpr(op)) op = ir_strip_pointer_casts(op);
          if (op && LLVMIsAFunction(op)) vec_push(&stack, op);
        }
      }
    if (indirect) {
      indirect = false;
      for (LLVMValueRef g = LLVMGetFirstFunction(m); g; g = LLVMGetNextFunction(g))
        if (LLVMGetFirstUse(g)) vec_push(&stack, g);
    }
  }
  vec_free(&stack);
}

void ad_global_shadows_begin(LLVMModuleRef m) {
  ValueMap reached;
  vmap_init(&reached);
  find_reached(m, &reached);
  /* used by one function a derivative reaches: a call carries a derivative through its arguments and
     result, not through a global its callee reads or writes (a call without active arguments is not
     differentiated) */
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    bool several = false;
    if (eligible(g) && (user_function(g, &reached, &several), !several)) vec_push(&decided, g);
  }
  vmap_free(&reached);
  deciding = true;
}

void ad_global_shadows_end(void) {
  vec_free(&decided);
  vec_free(&made[0]);
  vec_free(&made[1]);
  deciding = false;
}

bool ad_is_mutable_global_with_shadow(LLVMValueRef g) {
  g = stripped(g);
  /* before the decision (a checkpointed loop's notes): every eligible global, which refuses more */
  return eligible(g) && (!deciding || ir_list_has(&decided, g));
}

/* Whether a float stored may carry a derivative: not a constant, nor made of constants and integers (a
 * choice between two constants, a count converted). */
static bool may_vary(LLVMValueRef v, int depth) {
  if (LLVMIsAConstant(v)) return false;
  if (!LLVMIsAInstruction(v) || depth > 16) return true;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMSIToFP:
  case LLVMUIToFP: return false;
  case LLVMSelect: return may_vary(LLVMGetOperand(v, 1), depth + 1) || may_vary(LLVMGetOperand(v, 2), depth + 1);
  case LLVMPHI:
    for (unsigned i = 0, n = LLVMCountIncoming(v); i < n; i++)
      if (LLVMGetIncomingValue(v, i) != v && may_vary(LLVMGetIncomingValue(v, i), depth + 1)) return true;
    return false;
  case LLVMFNeg:
  case LLVMFPTrunc:
  case LLVMFPExt:
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
    for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(v); i < n; i++)
      if (may_vary(LLVMGetOperand(v, i), depth + 1)) return true;
    return false;
  default: return true; /* loads, calls, arguments' uses: anything */
  }
}

static bool address_may_hold_active(LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user)) {
      LLVMValueRef stored = LLVMGetOperand(user, 0);
      if (LLVMGetOperand(user, 1) != v || (ir_contains_fp(LLVMTypeOf(stored)) && may_vary(stored, 0))) return true;
      continue;
    }
    if (LLVMIsAConstantExpr(user) || LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) {
      if (address_may_hold_active(user)) return true;
      continue;
    }
    return true; /* a call, a phi, a select, a store of its address: anything may write through it */
  }
  return false;
}

bool ad_global_may_hold_active(LLVMValueRef g) { return ad_is_mutable_global_with_shadow(g) && address_may_hold_active(g); }

bool ad_has_constant_shadow(LLVMValueRef v) {
  v = stripped(v);
  if (!v) return false;
  if (LLVMIsAFunction(v) || constant_global(v) || ad_is_current_tape(v) || ad_is_mutable_global_with_shadow(v)) return true;
  if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr) return ad_has_constant_shadow(LLVMGetOperand(v, 0));
  return false;
}

/* The shadow of a constant initializer: zero floats, shadows of pointers, the rest as it is. */
static LLVMValueRef shadow_of_initializer(LLVMValueRef c, ShadowUse use) {
  LLVMTypeRef t = LLVMTypeOf(c);
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
  case LLVMX86_FP80TypeKind:
  case LLVMFP128TypeKind: return LLVMConstNull(t);
  case LLVMPointerTypeKind: {
    LLVMValueRef s = ad_has_constant_shadow(c) ? ad_constant_shadow(c, use) : NULL;
    return s ? s : LLVMIsNull(c) || LLVMIsUndef(c) ? c : LLVMConstNull(t); /* a pointer to mutable data: none */
  }
  case LLVMStructTypeKind:
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: {
    if (LLVMIsNull(c) || LLVMIsUndef(c)) return LLVMConstNull(t);
    unsigned n = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMCountStructElementTypes(t)
                 : LLVMGetTypeKind(t) == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(t)
                                                            : LLVMGetVectorSize(t);
    LLVMValueRef *elems = xcalloc(n + 1, sizeof *elems);
    for (unsigned i = 0; i < n; i++) elems[i] = shadow_of_initializer(LLVMGetAggregateElement(c, i), use);
    LLVMValueRef r = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMConstNamedStruct(t, elems, n)
                     : LLVMGetTypeKind(t) == LLVMArrayTypeKind ? LLVMConstArray2(LLVMGetElementType(t), elems, n)
                                                                : LLVMConstVector(elems, n);
    free(elems);
    return r;
  }
  default: return c;
  }
}

LLVMValueRef ad_constant_shadow(LLVMValueRef v, ShadowUse use) {
  v = stripped(v);
  if (!v || !ad_has_constant_shadow(v)) return NULL;
  if (LLVMIsAFunction(v)) return v;
  if (LLVMIsAConstantExpr(v)) { /* getelementptr: the same indices into the shadow */
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    LLVMValueRef *idx = xcalloc(n, sizeof *idx);
    for (unsigned i = 1; i < n; i++) idx[i - 1] = LLVMGetOperand(v, i);
    LLVMValueRef r = LLVMConstGEP2(LLVMGetGEPSourceElementType(v), ad_constant_shadow(LLVMGetOperand(v, 0), use), idx, n - 1);
    free(idx);
    return r;
  }
  LLVMModuleRef m = LLVMGetGlobalParent(v);
  if (ad_is_current_tape(v)) { /* reverse mode over reverse mode is refused before it gets here */
    if (use != SHADOW_READ) return NULL;
    LLVMValueRef twin = LLVMGetNamedGlobal(m, "__parad_rt_current_tangent");
    if (!twin) {
      twin = LLVMAddGlobal(m, LLVMGlobalGetValueType(v), "__parad_rt_current_tangent");
      LLVMSetThreadLocal(twin, 1);
    }
    return twin;
  }
  if (ad_is_mutable_global_with_shadow(v)) { /* zero at every derivative's entry: ad_zero_global_shadows */
    char *name = xasprintf("%s.parad.%s", LLVMGetValueName(v), use == SHADOW_READ ? "tangents" : "adjoints");
    LLVMValueRef s = LLVMGetNamedGlobal(m, name);
    if (!s) {
      LLVMTypeRef t = LLVMGlobalGetValueType(v);
      s = LLVMAddGlobal(m, t, name);
      LLVMSetLinkage(s, LLVMInternalLinkage);
      LLVMSetAlignment(s, LLVMGetAlignment(v));
      LLVMSetInitializer(s, LLVMConstNull(t));
      vec_push(&made[use == SHADOW_ADD], s);
    }
    free(name);
    return s;
  }
  char *name = xasprintf("%s.parad.%s", LLVMGetValueName(v), use == SHADOW_READ ? "shadow" : "sink");
  LLVMValueRef s = LLVMGetNamedGlobal(m, name);
  if (!s) {
    s = LLVMAddGlobal(m, LLVMGlobalGetValueType(v), name);
    LLVMSetLinkage(s, LLVMInternalLinkage);
    LLVMSetAlignment(s, LLVMGetAlignment(v));
    LLVMSetInitializer(s, LLVMConstNull(LLVMGlobalGetValueType(v))); /* while its own initializer is made */
    LLVMSetInitializer(s, shadow_of_initializer(LLVMGetInitializer(v), use));
    LLVMSetGlobalConstant(s, use == SHADOW_READ);
  }
  free(name);
  return s;
}

enum { STAND_IN_BYTES = 64 };

static LLVMValueRef zeros(LLVMModuleRef m, ShadowUse use) {
  const char *name = use == SHADOW_READ ? "parad.stand_in.zeros" : "parad.stand_in.sink";
  LLVMValueRef g = LLVMGetNamedGlobal(m, name);
  if (g) return g;
  LLVMTypeRef t = LLVMArrayType2(LLVMInt8TypeInContext(LLVMGetModuleContext(m)), STAND_IN_BYTES);
  g = LLVMAddGlobal(m, t, name);
  LLVMSetInitializer(g, LLVMConstNull(t));
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, STAND_IN_BYTES);
  LLVMSetGlobalConstant(g, use == SHADOW_READ);
  return g;
}

/* A global the program registered as inactive (ad/registered.h), chosen against memory with a shadow
 * (`p = cond ? &tmp : c; *p *= a`, optimised): a shadow of its own size, which only such choices reach,
 * so that what goes there is dropped and the other memory's derivative is right. */
static LLVMValueRef inactive_sink(LLVMModuleRef m, LLVMValueRef p) {
  long long offset = 0;
  LLVMValueRef base = ir_strip_constant_offsets(m, p, &offset);
  if (!LLVMIsAGlobalVariable(base) || !registered_inactive_memory(base)) return NULL;
  char *name = xasprintf("parad.inactive_sink.%s", LLVMGetValueName(base));
  LLVMValueRef s = LLVMGetNamedGlobal(m, name);
  if (!s) {
    LLVMTypeRef t = LLVMGlobalGetValueType(base);
    s = LLVMAddGlobal(m, t, name);
    LLVMSetInitializer(s, LLVMConstNull(t));
    LLVMSetLinkage(s, LLVMInternalLinkage);
    LLVMSetAlignment(s, LLVMGetAlignment(base));
  }
  free(name);
  if (!offset) return s;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(c), (unsigned long long)offset, 1);
  return LLVMConstGEP2(LLVMInt8TypeInContext(c), s, &idx, 1);
}

LLVMValueRef ad_stand_in_shadow(LLVMValueRef choice, LLVMValueRef operand, ShadowUse use) {
  if (!choice || !(LLVMIsASelectInst(choice) || LLVMIsAPHINode(choice))) return NULL;
  bool is_operand = false;
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(choice); i < n; i++) is_operand |= LLVMGetOperand(choice, i) == operand;
  if (!is_operand || !LLVMGetFirstUse(choice)) return NULL;
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(choice)));
  LLVMValueRef sink = inactive_sink(m, operand);
  if (sink) return sink;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  for (LLVMUseRef u = LLVMGetFirstUse(choice); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsALoadInst(user) || LLVMGetVolatile(user) || !ir_is_fp_or_fp_vector(LLVMTypeOf(user)) ||
        LLVMStoreSizeOfType(td, LLVMTypeOf(user)) > STAND_IN_BYTES)
      return NULL;
  }
  return zeros(m, use);
}

void ad_zero_global_shadows(LLVMModuleRef m, LLVMValueRef before, ShadowUse use) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(b, before);
  const ValueList *l = &made[use == SHADOW_ADD];
  for (size_t i = 0; i < l->len; i++)
    LLVMBuildMemSet(b, l->data[i], LLVMConstInt(LLVMInt8TypeInContext(c), 0, 0),
                    LLVMConstInt(LLVMInt64TypeInContext(c), ir_type_size(m, LLVMGlobalGetValueType(l->data[i])), 0),
                    LLVMGetAlignment(l->data[i]));
  LLVMDisposeBuilder(b);
}
