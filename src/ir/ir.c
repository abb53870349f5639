#include "ir/ir.h"
#include "ir/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>

/* ---- types ---- */

bool ir_is_fp(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
  case LLVMX86_FP80TypeKind:
  case LLVMFP128TypeKind:
  case LLVMPPC_FP128TypeKind: return true;
  default: return false;
  }
}

bool ir_is_fp_or_fp_vector(LLVMTypeRef t) { return ir_is_fp(ir_scalar_type(t)); }
bool ir_is_ptr(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMPointerTypeKind; }
bool ir_is_int(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMIntegerTypeKind; }

LLVMTypeRef ir_scalar_type(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return (k == LLVMVectorTypeKind || k == LLVMScalableVectorTypeKind) ? LLVMGetElementType(t) : t;
}

/* Does t hold, anywhere inside, pointers (if `pointers`) or floats (if `floats`). */
static bool contains(LLVMTypeRef t, bool pointers, bool floats) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMPointerTypeKind: return pointers;
  case LLVMVectorTypeKind:
  case LLVMScalableVectorTypeKind:
  case LLVMArrayTypeKind: return contains(LLVMGetElementType(t), pointers, floats);
  case LLVMStructTypeKind:
    for (unsigned i = 0, n = LLVMCountStructElementTypes(t); i < n; i++)
      if (contains(LLVMStructGetTypeAtIndex(t, i), pointers, floats)) return true;
    return false;
  default: return floats && ir_is_fp(t);
  }
}

bool ir_carries_derivative(LLVMTypeRef t) { return contains(t, true, true); }
bool ir_contains_fp(LLVMTypeRef t) { return contains(t, false, true); }
bool ir_contains_ptr(LLVMTypeRef t) { return contains(t, true, false); }
bool ir_is_pointer_aggregate(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return (k == LLVMStructTypeKind || k == LLVMArrayTypeKind) && contains(t, true, false);
}

unsigned long long ir_type_size(LLVMModuleRef m, LLVMTypeRef t) {
  return LLVMABISizeOfType(LLVMGetModuleDataLayout(m), t);
}

const char *ir_type_name(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind: return "half";
  case LLVMBFloatTypeKind: return "bfloat";
  case LLVMFloatTypeKind: return "float";
  case LLVMDoubleTypeKind: return "double";
  case LLVMX86_FP80TypeKind: return "long double";
  case LLVMFP128TypeKind: return "fp128";
  case LLVMPointerTypeKind: return "pointer";
  case LLVMIntegerTypeKind: return "integer";
  case LLVMVectorTypeKind: return "vector";
  case LLVMStructTypeKind: return "struct";
  case LLVMArrayTypeKind: return "array";
  case LLVMVoidTypeKind: return "void";
  default: return "value";
  }
}

/* ---- constants ---- */

LLVMValueRef ir_const_fp(LLVMTypeRef t, double x) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef c = LLVMConstReal(LLVMGetElementType(t), x);
    LLVMValueRef elems[64];
    if (n > 64) return LLVMGetUndef(t);
    for (unsigned i = 0; i < n; i++) elems[i] = c;
    return LLVMConstVector(elems, n);
  }
  return LLVMConstReal(t, x);
}

LLVMValueRef ir_const_i32(LLVMContextRef c, long long x) {
  return LLVMConstInt(LLVMInt32TypeInContext(c), (unsigned long long)x, 1);
}

LLVMValueRef ir_const_i64(LLVMContextRef c, long long x) {
  return LLVMConstInt(LLVMInt64TypeInContext(c), (unsigned long long)x, 1);
}

LLVMIntPredicate ir_icmp_inverse(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ: return LLVMIntNE;
  case LLVMIntNE: return LLVMIntEQ;
  case LLVMIntSLT: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLT;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSLE: return LLVMIntSGT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULT;
  case LLVMIntUGT: return LLVMIntULE;
  case LLVMIntULE: return LLVMIntUGT;
  }
  return p;
}

LLVMIntPredicate ir_icmp_swapped(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSLE: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULE;
  default: return p; /* == and != */
  }
}

bool ir_is_const_zero(LLVMValueRef v) {
  if (!v) return true;
  if (LLVMIsAConstantAggregateZero(v) || LLVMIsAConstantPointerNull(v)) return true;
  if (LLVMIsAConstantFP(v)) {
    LLVMBool lossy;
    double x = LLVMConstRealGetDouble(v, &lossy);
    return x == 0.0 && !__builtin_signbit(x);
  }
  if (LLVMIsAConstantInt(v)) return LLVMConstIntGetZExtValue(v) == 0;
  return false;
}

/* ---- calls ---- */

bool ir_is_call(LLVMValueRef v) { return v && LLVMIsACallInst(v) != NULL; }
bool ir_is_call_site(LLVMValueRef v) { return v && (LLVMIsACallInst(v) || LLVMIsAInvokeInst(v)); }

unsigned ir_param_index(LLVMValueRef param) {
  unsigned i = 0;
  for (LLVMValueRef p = LLVMGetFirstParam(LLVMGetParamParent(param)); p && p != param; p = LLVMGetNextParam(p)) i++;
  return i;
}

LLVMValueRef ir_called_function(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee) return NULL;
  if (LLVMIsAFunction(callee)) return callee;
  /* Old-style constant casts of a function: look through them, the call type is what matters. */
  if (LLVMIsAConstantExpr(callee)) {
    LLVMValueRef base = ir_strip_pointer_casts(callee);
    if (LLVMIsAFunction(base)) return base;
  }
  return NULL;
}

const char *ir_called_name(LLVMValueRef call) {
  LLVMValueRef fn = ir_called_function(call);
  return fn ? LLVMGetValueName(fn) : "";
}

unsigned ir_num_call_args(LLVMValueRef call) { return LLVMGetNumArgOperands(call); }

LLVMModuleRef ir_builder_module(LLVMBuilderRef b) {
  return LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)));
}

LLVMContextRef ir_builder_context(LLVMBuilderRef b) {
  return LLVMGetModuleContext(ir_builder_module(b));
}

LLVMValueRef ir_call_intrinsic(LLVMBuilderRef b, const char *name, LLVMTypeRef *overloads,
                               unsigned n_overloads, LLVMValueRef *args, unsigned n_args) {
  LLVMModuleRef m = ir_builder_module(b);
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m, id, overloads, n_overloads);
  LLVMTypeRef ty = LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, overloads, n_overloads);
  return LLVMBuildCall2(b, ty, fn, args, n_args, "");
}

void ir_branch_weights(LLVMValueRef br, unsigned taken, unsigned not_taken) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(br));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMValueRef md[3] = {LLVMMDStringInContext(ctx, "branch_weights", 14), LLVMConstInt(i32, taken, 0),
                        LLVMConstInt(i32, not_taken, 0)};
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(ctx, "prof", 4), LLVMMDNodeInContext(ctx, md, 3));
}

LLVMValueRef ir_function_named(LLVMModuleRef m, const char *name, LLVMTypeRef fn_type) {
  LLVMValueRef fn = LLVMGetNamedFunction(m, name);
  return fn ? fn : LLVMAddFunction(m, name, fn_type);
}

LLVMValueRef ir_call_named(LLVMBuilderRef b, const char *name, LLVMTypeRef fn_type, LLVMValueRef *args,
                           unsigned n_args) {
  LLVMModuleRef m = ir_builder_module(b);
  LLVMValueRef fn = LLVMGetNamedFunction(m, name);
  if (!fn) {
    fn = LLVMAddFunction(m, name, fn_type);
    /* Parad's runtime stops the program rather than throw: a call of it in code the optimiser inlines
       into C++ with destructors to run stays a call (an invoke is a block's end, which Parad's later
       steps do not expect) */
    if (!strncmp(name, "__parad", 7))
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                              LLVMCreateEnumAttribute(LLVMGetModuleContext(m), ir_attr_kind("nounwind"), 0));
  }
  return LLVMBuildCall2(b, fn_type, fn, args, n_args, "");
}

LLVMValueRef ir_caller_of(LLVMValueRef fn, const char *name) {
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMValueRef w = LLVMGetNamedFunction(m, name);
  if (w) return w;
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
  w = LLVMAddFunction(m, name, fty);
  LLVMSetLinkage(w, LLVMInternalLinkage);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, w, "entry"));
  unsigned n = LLVMCountParams(w);
  LLVMValueRef *args = xcalloc(n + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++) args[i] = LLVMGetParam(w, i);
  LLVMValueRef r = LLVMBuildCall2(b, fty, fn, args, n, "");
  if (LLVMGetTypeKind(LLVMGetReturnType(fty)) == LLVMVoidTypeKind) LLVMBuildRetVoid(b);
  else LLVMBuildRet(b, r);
  free(args);
  LLVMDisposeBuilder(b);
  return w;
}

unsigned ir_attr_kind(const char *name) { return LLVMGetEnumAttributeKindForName(name, strlen(name)); }

bool ir_fn_has_attr(LLVMValueRef fn, const char *attr) {
  return LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, ir_attr_kind(attr)) != NULL;
}

LLVMValueRef ir_fn_named_by_attr(LLVMValueRef fn, const char *key) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
  if (!a) return NULL;
  unsigned len;
  const char *name = LLVMGetStringAttributeValue(a, &len);
  char *z = xasprintf("%.*s", (int)len, name);
  LLVMValueRef named = LLVMGetNamedFunction(LLVMGetGlobalParent(fn), z);
  free(z);
  return named;
}

bool ir_call_arg_has_attr(LLVMValueRef call, unsigned arg, const char *attr) {
  return LLVMGetCallSiteEnumAttribute(call, arg + 1, ir_attr_kind(attr)) != NULL;
}

LLVMTypeRef ir_call_arg_type_attr(LLVMValueRef call, unsigned arg, const char *attr) {
  LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(call, arg + 1, ir_attr_kind(attr));
  return a ? LLVMGetTypeAttributeValue(a) : NULL;
}

/* ---- builder ---- */

void ir_position_after_phis(LLVMBuilderRef b, LLVMBasicBlockRef bb) {
  LLVMValueRef i = LLVMGetFirstInstruction(bb);
  while (i && LLVMIsAPHINode(i)) i = LLVMGetNextInstruction(i);
  if (i)
    LLVMPositionBuilderBefore(b, i);
  else
    LLVMPositionBuilderAtEnd(b, bb);
}

LLVMValueRef ir_entry_alloca(LLVMValueRef fn, LLVMTypeRef t, const char *name) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(t));
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(b, first);
  else
    LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef a = LLVMBuildAlloca(b, t, name);
  LLVMDisposeBuilder(b);
  return a;
}

bool ir_large_alloca(LLVMModuleRef m, LLVMValueRef alloca) {
  LLVMValueRef count = LLVMGetOperand(alloca, 0);
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(alloca);
  if (!LLVMIsAConstantInt(count) || bb != LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(bb))) return false;
  return LLVMConstIntGetZExtValue(count) * ir_type_size(m, LLVMGetAllocatedType(alloca)) >= (1u << 20);
}

void ir_memset_zero(LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef bytes, unsigned align) {
  LLVMContextRef c = ir_builder_context(b);
  LLVMBuildMemSet(b, p, LLVMConstInt(LLVMInt8TypeInContext(c), 0, 0), bytes, align);
}

/* ---- instructions ---- */

/* Whether v is an instruction whose only effect is its value. */
static bool value_only(LLVMValueRef v) {
  if (!LLVMIsAInstruction(v)) return false;
  if (LLVMIsABinaryOperator(v) || LLVMIsACastInst(v) || LLVMIsAExtractElementInst(v) || LLVMIsAInsertElementInst(v) ||
      LLVMIsAShuffleVectorInst(v) || LLVMIsASelectInst(v) || LLVMIsACmpInst(v) || LLVMIsAGetElementPtrInst(v))
    return true;
  return LLVMGetInstructionOpcode(v) == LLVMFNeg;
}

/* The operands of an erased instruction that nothing uses any more, erased in turn (no value is made in
 * between, so an erased one's address is not reused: `gone` tells them apart). */
static void erase_unused(LLVMValueRef *ops, unsigned n) {
  ValueMap gone;
  vmap_init(&gone);
  VEC(LLVMValueRef) work = {0};
  for (unsigned k = 0; k < n; k++) vec_push(&work, ops[k]);
  while (work.len) {
    LLVMValueRef v = work.data[--work.len];
    if (vmap_has(&gone, v) || !value_only(v) || LLVMGetFirstUse(v)) continue;
    for (unsigned k = 0, nv = (unsigned)LLVMGetNumOperands(v); k < nv; k++) vec_push(&work, LLVMGetOperand(v, k));
    vmap_put(&gone, v, v);
    LLVMInstructionEraseFromParent(v);
  }
  vec_free(&work);
  vmap_free(&gone);
}

unsigned ir_rewrite_instructions(LLVMModuleRef m, const ValueMap *only, LLVMValueRef (*make)(LLVMBuilderRef, LLVMValueRef)) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  unsigned n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = vmap_has(only, fn) ? LLVMGetFirstBasicBlock(fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i); /* what the erased operands may be comes before i */
        LLVMPositionBuilderBefore(b, i);
        LLVMValueRef r = make(b, i);
        if (!r) continue;
        if (LLVMIsAInstruction(r) && !LLVMGetDebugLocLine(r)) LLVMInstructionSetDebugLoc(r, LLVMInstructionGetDebugLoc(i));
        LLVMValueRef ops[4] = {0};
        unsigned nops = (unsigned)LLVMGetNumOperands(i);
        if (nops > 4) nops = 4;
        for (unsigned k = 0; k < nops; k++) ops[k] = LLVMGetOperand(i, k);
        LLVMReplaceAllUsesWith(i, r);
        LLVMInstructionEraseFromParent(i);
        erase_unused(ops, nops);
        n++;
      }
  LLVMDisposeBuilder(b);
  return n;
}

bool ir_is_debug_intrinsic(LLVMValueRef inst) {
  if (!ir_is_call(inst)) return false;
  return strncmp(ir_called_name(inst), "llvm.dbg.", 9) == 0;
}

bool ir_is_lifetime_marker(LLVMValueRef inst) {
  return ir_is_call(inst) && !strncmp(ir_called_name(inst), "llvm.lifetime.", 14);
}

LLVMValueRef ir_stored_once(LLVMValueRef v) {
  for (int depth = 0; depth < 8; depth++) {
    v = ir_strip_pointer_casts(v);
    LLVMValueRef slot = LLVMIsALoadInst(v) ? ir_strip_pointer_casts(LLVMGetOperand(v, 0)) : NULL, only = NULL;
    if (!slot || !LLVMIsAAllocaInst(slot)) return v;
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsALoadInst(user) || LLVMIsAIntrinsicInst(user)) continue; /* lifetime markers, debug records */
      if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != slot || only) return v;
      only = LLVMGetOperand(user, 0);
    }
    if (!only) return v;
    v = only;
  }
  return v;
}

LLVMValueRef ir_strip_pointer_casts(LLVMValueRef v) {
  for (;;) {
    LLVMOpcode op = 0;
    if (LLVMIsAInstruction(v))
      op = LLVMGetInstructionOpcode(v);
    else if (LLVMIsAConstantExpr(v))
      op = LLVMGetConstOpcode(v);
    else
      return v;
    if (op == LLVMBitCast || op == LLVMAddrSpaceCast)
      v = LLVMGetOperand(v, 0);
    else
      return v;
  }
}

LLVMValueRef ir_root_object(LLVMValueRef p) {
  for (int i = 0; i < 64; i++) {
    p = ir_strip_pointer_casts(p);
    if (LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))
      p = LLVMGetOperand(p, 0);
    else
      break;
  }
  return p;
}

bool ir_null_based(LLVMValueRef p) {
  for (int depth = 0; depth < 64; depth++) {
    p = ir_strip_pointer_casts(p);
    if (LLVMIsAConstantPointerNull(p)) return true;
    /* a constant address (-ftrivial-auto-var-init=pattern's 0xAAAA... in a pointer variable) */
    if (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMIntToPtr && LLVMIsAConstantInt(LLVMGetOperand(p, 0))) return true;
    bool gep = LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr);
    if (!gep) return false;
    p = LLVMGetOperand(p, 0);
  }
  return false;
}

bool ir_gep_constant_offset(LLVMModuleRef m, LLVMValueRef gep, long long *offset) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  unsigned n = (unsigned)LLVMGetNumOperands(gep);
  for (unsigned i = 1; i < n; i++)
    if (!LLVMIsAConstantInt(LLVMGetOperand(gep, i))) return false;
  long long off = 0;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
  for (unsigned i = 1; i < n; i++) {
    long long idx = LLVMConstIntGetSExtValue(LLVMGetOperand(gep, i));
    if (i > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      off += (long long)LLVMOffsetOfElement(td, t, (unsigned)idx);
      t = LLVMStructGetTypeAtIndex(t, (unsigned)idx);
      continue;
    }
    if (i > 1) {
      if (LLVMGetTypeKind(t) != LLVMArrayTypeKind) return false; /* vector indices: not byte-addressed */
      t = LLVMGetElementType(t);
    }
    off += idx * (long long)LLVMABISizeOfType(td, t);
  }
  *offset += off;
  return true;
}

static bool is_gep_value(LLVMValueRef v) {
  return LLVMIsAGetElementPtrInst(v) || (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr);
}

static bool is_cast_value(LLVMValueRef v) {
  return LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v) ||
         (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMBitCast || LLVMGetConstOpcode(v) == LLVMAddrSpaceCast));
}

bool ir_is_address_step(LLVMValueRef v) { return is_gep_value(v) || is_cast_value(v); }

/* p as g plus constant offsets added to *off (instructions or constants). */
static bool offset_in_global(LLVMModuleRef m, LLVMValueRef p, LLVMValueRef g, long long *off) {
  for (int depth = 0; depth < 32; depth++) {
    if (p == g) return true;
    if (is_cast_value(p) || (is_gep_value(p) && ir_gep_constant_offset(m, p, off))) p = LLVMGetOperand(p, 0);
    else return false;
  }
  return false;
}

bool ir_bytes_in_global(LLVMModuleRef m, LLVMValueRef g, LLVMValueRef p, long long size, long long *lo, long long *hi, bool *exact) {
  long long off = 0, inner = 0;
  for (int depth = 0; depth < 32 && p != g; depth++) {
    if (is_cast_value(p) || (is_gep_value(p) && ir_gep_constant_offset(m, p, &off))) {
      p = LLVMGetOperand(p, 0);
      continue;
    }
    if (!is_gep_value(p) || LLVMGetNumOperands(p) != 3 || !LLVMIsInBounds(p)) return false;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
    LLVMValueRef first = LLVMGetOperand(p, 1);
    if (LLVMGetTypeKind(t) != LLVMArrayTypeKind || !LLVMIsAConstantInt(first) || LLVMConstIntGetSExtValue(first) != 0 ||
        !offset_in_global(m, LLVMGetOperand(p, 0), g, &inner))
      return false;
    long long n = (long long)LLVMGetArrayLength2(t), each = (long long)ir_type_size(m, LLVMGetElementType(t));
    *lo = inner + off, *hi = inner + (n - 1) * each + off + size, *exact = false; /* elements 0 to n - 1 */
    return true;
  }
  if (p != g) return false;
  *lo = off, *hi = off + size, *exact = true;
  return true;
}

int ir_gep_chosen_offsets(LLVMModuleRef m, LLVMValueRef gep, long long at[2]) {
  if (LLVMGetNumOperands(gep) != 2) return 0;
  LLVMValueRef index = LLVMGetOperand(gep, 1);
  if (!LLVMIsASelectInst(index) || !LLVMIsAConstantInt(LLVMGetOperand(index, 1)) || !LLVMIsAConstantInt(LLVMGetOperand(index, 2)))
    return 0;
  long long size = (long long)LLVMABISizeOfType(LLVMGetModuleDataLayout(m), LLVMGetGEPSourceElementType(gep)), start = at[0];
  for (int k = 0; k < 2; k++) at[k] = start + LLVMConstIntGetSExtValue(LLVMGetOperand(index, 1 + k)) * size;
  return 2;
}

LLVMValueRef ir_strip_constant_offsets(LLVMModuleRef m, LLVMValueRef p, long long *offset) {
  for (int depth = 0; depth < 64; depth++) {
    p = ir_strip_pointer_casts(p);
    if (!LLVMIsAGetElementPtrInst(p) || !ir_gep_constant_offset(m, p, offset)) return p;
    p = LLVMGetOperand(p, 0);
  }
  return p;
}

LLVMValueRef ir_loaded_global(LLVMValueRef v) {
  if (!v || !LLVMIsALoadInst(v)) return NULL;
  LLVMValueRef p = ir_strip_pointer_casts(LLVMGetOperand(v, 0));
  return LLVMIsAGlobalVariable(p) ? p : NULL;
}

bool ir_atomic_fadd(LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef v, unsigned align) {
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  LLVMContextRef c = ir_builder_context(b);
  if (k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind) {
    LLVMValueRef rmw = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpFAdd, p, v, LLVMAtomicOrderingMonotonic, 0);
    /* at least the type's own alignment: a smaller one (a field of a struct copied at -O0, which the
       optimiser read with align 1) is lowered to a call into libatomic, which programs do not link; an
       x86 locked operation stays atomic on an address that is not aligned after all */
    unsigned natural = k == LLVMFloatTypeKind ? 4 : 8;
    LLVMSetAlignment(rmw, align > natural ? align : natural);
    return true;
  }
  if (k == LLVMX86_FP80TypeKind || k == LLVMFP128TypeKind) { /* no instruction adds these atomically */
    LLVMTypeRef params[2] = {LLVMPointerTypeInContext(c, 0), t};
    LLVMValueRef args[2] = {p, v};
    ir_call_named(b, k == LLVMFP128TypeKind ? "__parad_rt_atomic_add_f128" : "__parad_rt_atomic_add_f80",
                  LLVMFunctionType(LLVMVoidTypeInContext(c), params, 2, 0), args, 2);
    return true;
  }
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
  if (k == LLVMVectorTypeKind) {
    LLVMTypeRef e = LLVMGetElementType(t);
    for (unsigned i = 0, n = LLVMGetVectorSize(t); i < n; i++) {
      LLVMValueRef idx = LLVMConstInt(i64, i, 0);
      LLVMValueRef lane = LLVMBuildExtractElement(b, v, LLVMConstInt(i32, i, 0), "");
      if (!ir_atomic_fadd(b, LLVMBuildGEP2(b, e, p, &idx, 1, ""), lane, 0)) return false;
    }
    return true;
  }
  if (k == LLVMStructTypeKind || k == LLVMArrayTypeKind) {
    unsigned n = k == LLVMStructTypeKind ? LLVMCountStructElementTypes(t) : (unsigned)LLVMGetArrayLength2(t);
    for (unsigned i = 0; i < n; i++) {
      LLVMTypeRef et = k == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, i) : LLVMGetElementType(t);
      if (!ir_contains_fp(et)) continue;
      LLVMValueRef idx[2] = {LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, i, 0)};
      if (!ir_atomic_fadd(b, LLVMBuildGEP2(b, t, p, idx, 2, ""), LLVMBuildExtractValue(b, v, i, ""), 0)) return false;
    }
    return true;
  }
  return false;
}

LLVMValueRef ir_address_base(LLVMValueRef p) {
  p = ir_strip_pointer_casts(p);
  while (LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))
    p = ir_strip_pointer_casts(LLVMGetOperand(p, 0));
  return p;
}

/* The global a thread-local address names (llvm.threadlocal.address of it), or NULL. */
static LLVMValueRef thread_local_global(LLVMValueRef v) {
  if (!ir_is_call(v) || strncmp(ir_called_name(v), "llvm.threadlocal.address", 24)) return NULL;
  LLVMValueRef g = ir_strip_pointer_casts(LLVMGetArgOperand(v, 0));
  return LLVMIsAGlobalVariable(g) ? g : NULL;
}

#define POINTER_GLOBAL_RULE                                                                                    \
  "Parad gives a global pointer a shadow only where it sees all that sets it and what it points to: heap "    \
  "blocks (from malloc, calloc, realloc, aligned_alloc, posix_memalign, new, or a function returning only "   \
  "those) or what the differentiated code was given, stored into it directly, its address going nowhere "    \
  "else, blocks holding pointers only at constant offsets; else pass the pointer as an argument with a shadow"
#define THREAD_LOCAL_RULE                                                                                      \
  "Parad gives no shadow to a thread-local global (each thread's would have to be zeroed at every "            \
  "derivative's entry); make it a local of the parallel region, or pass it as an argument with a shadow"

/* An integer or an array of them, wider than bytes (`static long pool[64]`). */
static bool integers_only(LLVMTypeRef t) {
  while (LLVMGetTypeKind(t) == LLVMArrayTypeKind) t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 8;
}

void ir_describe_memory(LLVMValueRef p, char *buf, size_t n) {
  LLVMValueRef base = ir_address_base(p);
  LLVMValueRef from = LLVMIsALoadInst(base) ? ir_address_base(LLVMGetOperand(base, 0)) : NULL; /* what base was loaded from */
  if (LLVMIsAGlobalVariable(base) && ir_contains_ptr(LLVMGlobalGetValueType(base)))
    snprintf(buf, n, "the pointer global variable '%s', which has no shadow: " POINTER_GLOBAL_RULE, LLVMGetValueName(base));
  else if (LLVMIsAGlobalVariable(base) && integers_only(LLVMGlobalGetValueType(base)))
    snprintf(buf, n, "the global variable '%s', which has no shadow: its type holds integers only, and Parad gives "
                     "one to a global whose type holds floats (with integers beside them, or bytes), defined in the "
                     "file, not thread-local; declare it as the floats it holds, or as bytes", LLVMGetValueName(base));
  else if (LLVMIsAGlobalVariable(base))
    snprintf(buf, n, "the global variable '%s', which has no shadow: Parad gives one to a global of floats and "
                     "integers that the file defines (not thread-local)", LLVMGetValueName(base));
  else if (LLVMIsAArgument(base) && !strstr(LLVMGetValueName(LLVMGetParamParent(base)), ".omp_")) {
    LLVMValueRef fn = LLVMGetParamParent(base), given = NULL, caller = NULL;
    unsigned k = 0;
    while (LLVMGetParam(fn, k) != base) k++;
    bool requested = false;
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u && !requested; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      const char *callee = ir_is_call(call) ? ir_called_name(call) : "";
      requested = !strncmp(callee, "__parad", 7) || !strncmp(callee, "__enzyme", 8);
    }
    /* a function the program calls with a global there (a method of a global object: `this`): that global;
       not where a request names the function, whose constant argument it is (a plain call beside the
       request, passing the same global, was named instead) */
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u && !given && !requested; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!ir_is_call(call) || ir_called_function(call) != fn || k >= LLVMGetNumArgOperands(call)) continue;
      LLVMValueRef arg = ir_address_base(LLVMGetArgOperand(call, k));
      if (LLVMIsAGlobalVariable(arg)) given = LLVMGetArgOperand(call, k), caller = call;
    }
    /* a function no request names, which a function of the program calls: what that call gives it (a
       static matrix of the caller's), not advice for a request the program never made */
    static int depth;
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u && !given && !requested && depth < 4; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if (ir_is_call(call) && ir_called_function(call) == fn && k < LLVMGetNumArgOperands(call))
        given = LLVMGetArgOperand(call, k), caller = call;
    }
    if (given) {
      int len = snprintf(buf, n, "parameter %u of '%s', which '%s' gives ", k + 1, diag_source_function(fn),
                         diag_source_function(caller));
      depth++;
      if (len >= 0 && (size_t)len < n) ir_describe_memory(given, buf + len, n - (size_t)len);
      depth--;
    } else {
      snprintf(buf, n, "parameter %u of '%s', passed as constant; pass it with parad_dup and a shadow", k + 1,
               diag_source_function(fn));
    }
  } else if (LLVMIsAArgument(base))
    snprintf(buf, n, "a parameter passed as constant; pass it with parad_dup and a shadow");
  else if (from && LLVMIsAGlobalVariable(from))
    snprintf(buf, n, "a pointer loaded from the global variable '%s': " POINTER_GLOBAL_RULE, LLVMGetValueName(from));
  else if (from && thread_local_global(from))
    snprintf(buf, n, "a pointer loaded from the thread-local global variable '%s' (threadprivate, _Thread_local): " THREAD_LOCAL_RULE,
             LLVMGetValueName(thread_local_global(from)));
  else if (from && LLVMIsALoadInst(from) && LLVMIsAGlobalVariable(ir_address_base(LLVMGetOperand(from, 0))))
    snprintf(buf, n, "a pointer loaded from the block the global variable '%s' points to: Parad gives no shadow to "
                     "pointers kept in such a block; pass them as arguments with shadows",
             LLVMGetValueName(ir_address_base(LLVMGetOperand(from, 0))));
  else if (LLVMIsALoadInst(base))
    snprintf(buf, n, "a pointer loaded from memory that has no shadow");
  else if (thread_local_global(base))
    snprintf(buf, n, "the thread-local global variable '%s' (threadprivate, _Thread_local): " THREAD_LOCAL_RULE,
             LLVMGetValueName(thread_local_global(base)));
  else if (ir_is_call(base))
    snprintf(buf, n, "a pointer returned by '%s'", *ir_called_name(base) ? ir_called_name(base) : "an indirect call");
  else if (LLVMIsAIntToPtrInst(base))
    snprintf(buf, n, "a pointer made from an integer");
  else
    snprintf(buf, n, "memory without a shadow");
}

LLVMValueRef ir_mapped(const ValueMap *vmap, LLVMValueRef orig) {
  if (LLVMValueIsBasicBlock(orig) || LLVMIsAInstruction(orig) || LLVMIsAArgument(orig)) {
    LLVMValueRef v = vmap_get(vmap, orig);
    return v ? v : LLVMGetUndef(LLVMTypeOf(orig));
  }
  return orig;
}

static LLVMValueRef copy_operands(const ValueMap *vmap, LLVMValueRef inst) {
  LLVMValueRef c = LLVMInstructionClone(inst);
  for (unsigned i = 0, n = (unsigned)LLVMGetNumOperands(inst); i < n; i++) {
    LLVMValueRef op = LLVMGetOperand(inst, i), m = ir_mapped(vmap, op);
    if (m != op) LLVMSetOperand(c, i, m);
  }
  return c;
}

LLVMValueRef ir_clone_mapped(LLVMBuilderRef b, ValueMap *vmap, LLVMValueRef inst) {
  LLVMValueRef c = copy_operands(vmap, inst);
  size_t len;
  const char *name = LLVMGetValueName2(inst, &len);
  LLVMInsertIntoBuilderWithName(b, c, LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVoidTypeKind ? "" : name);
  vmap_put(vmap, inst, c);
  return c;
}

LLVMValueRef ir_mirror_call(LLVMBuilderRef b, const ValueMap *vmap, LLVMValueRef call, LLVMValueRef dst,
                            LLVMValueRef src, bool zero_value) {
  LLVMValueRef c = copy_operands(vmap, call);
  LLVMSetOperand(c, 0, dst);
  if (src) LLVMSetOperand(c, 1, src);
  if (zero_value) LLVMSetOperand(c, 1, LLVMConstNull(LLVMTypeOf(LLVMGetOperand(call, 1))));
  LLVMInsertIntoBuilder(b, c);
  return c;
}

LLVMValueRef ir_adjoint_sum(LLVMBuilderRef b, LLVMValueRef a, LLVMValueRef d) {
  LLVMValueRef sum = LLVMBuildFAdd(b, a, d, "");
  if (LLVMIsAInstruction(sum)) LLVMSetFastMathFlags(sum, LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros);
  return sum;
}

void ir_strip_locations(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) LLVMInstructionSetDebugLoc(i, NULL);
}

void ir_set_used(LLVMModuleRef m, LLVMValueRef *elems, unsigned n) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
  LLVMValueRef old = LLVMGetNamedGlobal(m, "llvm.used");
  if (old) LLVMDeleteGlobal(old);
  if (!n) return;
  LLVMValueRef used = LLVMAddGlobal(m, LLVMArrayType2(ptr, n), "llvm.used");
  LLVMSetInitializer(used, LLVMConstArray2(ptr, elems, n));
  LLVMSetLinkage(used, LLVMAppendingLinkage);
  LLVMSetSection(used, "llvm.metadata");
}

void ir_append_used(LLVMModuleRef m, LLVMValueRef g) {
  LLVMValueRef old = LLVMGetNamedGlobal(m, "llvm.used"), init = old ? LLVMGetInitializer(old) : NULL;
  unsigned n = init ? (unsigned)LLVMGetNumOperands(init) : 0;
  LLVMValueRef *elems = xcalloc(n + 1, sizeof *elems);
  for (unsigned i = 0; i < n; i++) elems[i] = LLVMGetOperand(init, i);
  elems[n] = g;
  ir_set_used(m, elems, n + 1);
  free(elems);
}

LLVMMetadataRef ir_loop_flag(LLVMContextRef c, const char *name, bool flag) {
  LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(c, name, strlen(name)),
                            LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0))};
  return LLVMMDNodeInContext2(c, ops, flag ? 2 : 1);
}

unsigned ir_loop_kind(LLVMContextRef c) { return LLVMGetMDKindIDInContext(c, "llvm.loop", 9); }

void ir_rewrite_loop_hints(LLVMValueRef term, LLVMMetadataRef drop, LLVMMetadataRef drop2, LLVMMetadataRef add) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(term));
  LLVMValueRef old = LLVMGetMetadata(term, ir_loop_kind(c));
  unsigned n = old ? LLVMGetMDNodeNumOperands(old) : 0;
  LLVMValueRef *vals = xcalloc(n + 1, sizeof *vals);
  if (n) LLVMGetMDNodeOperands(old, vals);
  LLVMMetadataRef *ops = xcalloc(n + 2, sizeof *ops);
  unsigned kept = 1; /* ops[0]: the loop's own node, as LLVM's loop ids begin */
  bool changed = add != NULL;
  for (unsigned i = 1; i < n; i++) {
    LLVMMetadataRef op = vals[i] ? LLVMValueAsMetadata(vals[i]) : NULL;
    if (op && (op == drop || op == drop2)) changed = true;
    else if (op) ops[kept++] = op;
  }
  if (add) ops[kept++] = add;
  if (changed) {
    LLVMMetadataRef id = NULL;
    if (kept > 1) {
      LLVMMetadataRef self = LLVMTemporaryMDNode(c, NULL, 0);
      ops[0] = self;
      id = LLVMMDNodeInContext2(c, ops, kept);
      LLVMMetadataReplaceAllUsesWith(self, id); /* and frees the temporary */
    }
    LLVMSetMetadata(term, ir_loop_kind(c), id ? LLVMMetadataAsValue(c, id) : NULL);
  }
  free(ops);
  free(vals);
}

void ir_strip_loop_hints(LLVMValueRef fn) {
  unsigned kind = LLVMGetMDKindID("llvm.loop", 9);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t) LLVMSetMetadata(t, kind, NULL);
  }
}

LLVMValueRef ir_address_integer(LLVMValueRef p) {
  for (int depth = 0; depth < 64 && p; depth++) {
    p = ir_strip_pointer_casts(p);
    if (LLVMIsAIntToPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMIntToPtr))
      return LLVMGetOperand(p, 0);
    if (!LLVMIsAGetElementPtrInst(p)) return NULL;
    p = LLVMGetOperand(p, 0);
  }
  return NULL;
}

bool ir_list_has(const ValueList *l, LLVMValueRef v) {
  for (size_t i = 0; i < l->len; i++)
    if (l->data[i] == v) return true;
  return false;
}

LLVMValueRef ir_const_gep_over(LLVMValueRef gep, LLVMValueRef base) {
  unsigned n = (unsigned)LLVMGetNumOperands(gep);
  LLVMValueRef *idx = xcalloc(n, sizeof *idx);
  for (unsigned i = 1; i < n; i++) idx[i - 1] = LLVMGetOperand(gep, i);
  LLVMValueRef r = LLVMConstGEP2(LLVMGetGEPSourceElementType(gep), base, idx, n - 1);
  free(idx);
  return r;
}

const char *ir_atomic_fp_refusal(LLVMAtomicRMWBinOp op) {
  switch (op) {
  case LLVMAtomicRMWBinOpFMax:
    return "maximum (an `omp atomic compare` keeping the larger value): keep each thread's maximum in a "
           "reduction(max:) instead";
  case LLVMAtomicRMWBinOpFMin:
    return "minimum (an `omp atomic compare` keeping the smaller value): keep each thread's minimum in a "
           "reduction(min:) instead";
  default: return "operation";
  }
}

LLVMValueRef ir_load_unless_null(LLVMBuilderRef b, LLVMValueRef base, LLVMValueRef at, LLVMTypeRef t) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)));
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef zeros = LLVMGetNamedGlobal(m, "parad.zeros");
  if (!zeros) { /* as wide as any value read so */
    zeros = LLVMAddGlobal(m, i64, "parad.zeros");
    LLVMSetInitializer(zeros, LLVMConstInt(i64, 0, 0));
    LLVMSetGlobalConstant(zeros, 1);
    LLVMSetLinkage(zeros, LLVMPrivateLinkage);
  }
  LLVMValueRef is_null = LLVMBuildICmp(b, LLVMIntEQ, base, LLVMConstNull(LLVMTypeOf(base)), "");
  return LLVMBuildLoad2(b, t, LLVMBuildSelect(b, is_null, zeros, at, ""), "");
}
