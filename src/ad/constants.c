/* Shadows of constants (see constants.h). */
#include "ad/constants.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "ad/checkpoint.h"
#include "ad/custom.h"
#include "ad/global_shadows.h"
#include "ad/indirect.h"
#include "ad/registered.h"
#include "analysis/activity.h"
#include "analysis/calls.h"
#include "analysis/memtype.h"
#include "ir/ir.h"
#include "mpi/mpi.h"
#include "omp/omp.h"

static LLVMValueRef stripped(LLVMValueRef v) { return v ? ir_strip_pointer_casts(v) : NULL; }

static bool constant_global(LLVMValueRef g) {
  return LLVMIsAGlobalVariable(g) && LLVMIsGlobalConstant(g) && LLVMGetInitializer(g) && !LLVMIsExternallyInitialized(g);
}

/* What a table of functions may hold: functions, nulls, addresses into constants that hold neither floats
 * nor pointers (names), a choice among them, or a pointer read from another such table (depth bounds the
 * search through choices). None has a derivative or leads to one, so each may be its own shadow. */
static bool function_table(LLVMValueRef g, int depth);

static bool function_or_null(LLVMValueRef v, int depth) {
  v = stripped(v);
  if (LLVMIsAFunction(v) || LLVMIsAConstantPointerNull(v) || LLVMIsUndef(v)) return true;
  if (LLVMIsAConstant(v)) {
    LLVMValueRef base = ir_address_base(v);
    return constant_global(base) && !ir_contains_fp(LLVMGlobalGetValueType(base)) && !ir_contains_ptr(LLVMGlobalGetValueType(base));
  }
  if (depth > 8) return false;
  if (LLVMIsASelectInst(v)) return function_or_null(LLVMGetOperand(v, 1), depth + 1) && function_or_null(LLVMGetOperand(v, 2), depth + 1);
  if (LLVMIsAPHINode(v)) {
    for (unsigned i = 0, n = LLVMCountIncoming(v); i < n; i++)
      if (LLVMGetIncomingValue(v, i) != v && !function_or_null(LLVMGetIncomingValue(v, i), depth + 1)) return false;
    return true;
  }
  if (LLVMIsALoadInst(v)) return function_table(ir_address_base(LLVMGetOperand(v, 0)), depth + 1);
  return false;
}

/* Whether every pointer in constant c is a function or null. */
static bool initializer_holds_functions(LLVMValueRef c) {
  LLVMTypeRef t = LLVMTypeOf(c);
  switch (LLVMGetTypeKind(t)) {
  case LLVMPointerTypeKind: return function_or_null(c, 0);
  case LLVMStructTypeKind:
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: {
    if (LLVMIsNull(c) || LLVMIsUndef(c)) return true;
    unsigned n = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMCountStructElementTypes(t)
                 : LLVMGetTypeKind(t) == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(t)
                                                            : LLVMGetVectorSize(t);
    for (unsigned i = 0; i < n; i++)
      if (!initializer_holds_functions(LLVMGetAggregateElement(c, i))) return false;
    return true;
  }
  default: return true;
  }
}

/* Whether every use of address v (the table or an address into it) only reads it or stores a function or
 * null into it. */
static bool only_functions_stored(LLVMValueRef v, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 1) != v || !function_or_null(LLVMGetOperand(user, 0), depth + 1)) return false;
      continue;
    }
    if (LLVMIsAConstantExpr(user) || LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) {
      if (!only_functions_stored(user, depth)) return false;
      continue;
    }
    return false; /* passed to a call, stored, chosen: anything may be written through it */
  }
  return true;
}

/* A mutable global of function pointers (`FluxFn table[] = {rusanov, hll}`, without const; a table of
 * names beside them), defined here, into which the module only stores such pointers: whatever is loaded
 * from it is its own shadow, so the table is its own shadow too. An object linked without IR could write
 * it only through a declaration in C of the same pointers. */
static bool function_table(LLVMValueRef g, int depth) {
  if (!g || !LLVMIsAGlobalVariable(g) || LLVMIsGlobalConstant(g) || !LLVMGetInitializer(g) ||
      LLVMIsExternallyInitialized(g) || LLVMIsThreadLocal(g) || depth > 8)
    return false;
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  return ir_contains_ptr(t) && !ir_contains_fp(t) && initializer_holds_functions(LLVMGetInitializer(g)) &&
         only_functions_stored(g, depth);
}

/* The runtime's current tape, read by reverse-mode derivatives that forward mode differentiates (a
 * Hessian-vector product): its shadow is the current tape's tangent twin (runtime/tape.h). */
bool ad_is_current_tape(LLVMValueRef g) {
  return g && LLVMIsAGlobalVariable(g) && !strcmp(LLVMGetValueName(g), "__parad_rt_current");
}

bool ad_is_reverse_sweep(LLVMValueRef fn) {
  return fn && LLVMIsAFunction(fn) && !strncmp(LLVMGetValueName(fn), "reverse.", 8); /* no C name has a dot */
}

bool ad_copy_drops_pointer_shadows(const Activity *act, LLVMValueRef call) {
  LLVMValueRef d = LLVMGetArgOperand(call, 0), s = LLVMGetArgOperand(call, 1);
  if (!activity_shadowed(act, d) || activity_shadowed(act, s) || LLVMIsAConstantPointerNull(s) || LLVMIsAUndefValue(s) ||
      ad_has_constant_shadow(s))
    return false;
  return memtype_copy_pointers(call) == COPY_POINTERS;
}

bool ad_has_constant_shadow(LLVMValueRef v) {
  v = stripped(v);
  if (!v) return false;
  if (LLVMIsAFunction(v) || constant_global(v) || ad_is_current_tape(v) || ad_is_mutable_global_with_shadow(v) ||
      function_table(v, 0) || mpi_predefined_handle(v))
    return true;
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
  if (LLVMIsAFunction(v) || function_table(v, 0) || mpi_predefined_handle(v)) return v;
  if (LLVMIsAConstantExpr(v)) /* getelementptr: the same indices into the shadow */
    return ir_const_gep_over(v, ad_constant_shadow(LLVMGetOperand(v, 0), use));
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
  if (ad_is_mutable_global_with_shadow(v)) return ad_global_shadow(v, use);
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

/* The stand-in is a block of zeros; the choice points into it at STAND_IN_AT, so that loads at small
 * negative offsets from the choice (a row's previous element) stay inside it. */
enum { STAND_IN_BYTES = 256, STAND_IN_AT = 64, VIEW_LOAD_BYTES = 64 };

static LLVMValueRef zeros(LLVMModuleRef m, ShadowUse use) {
  const char *name = use == SHADOW_READ ? "parad.stand_in.zeros" : "parad.stand_in.sink";
  LLVMValueRef g = LLVMGetNamedGlobal(m, name);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef t = LLVMArrayType2(LLVMInt8TypeInContext(c), STAND_IN_BYTES);
  if (!g) {
    g = LLVMAddGlobal(m, t, name);
    LLVMSetInitializer(g, LLVMConstNull(t));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, STAND_IN_AT);
    LLVMSetGlobalConstant(g, use == SHADOW_READ);
  }
  LLVMValueRef at = LLVMConstInt(LLVMInt64TypeInContext(c), STAND_IN_AT, 0);
  return LLVMConstGEP2(LLVMInt8TypeInContext(c), g, &at, 1);
}

/* A view kept in a local that a parallel region reads (`const double *p0 = c ? y : bc;`, then p0[i] inside
 * the region), or a constant pointer kept so and chosen inside (`(i > 0 ? y : bc)[k]`): clang passes the
 * local's address to the outlined function, which loads the pointer from it (at -O0 through a local of
 * its own that keeps the address; optimised, perhaps from a choice of two such addresses). Such a local,
 * a slot, carries the pointer as a register would. Its shadow holds the pointer itself where that has no
 * shadow of its own, when every pointer loaded from the slot, here and in the functions it is passed to
 * (forks, and direct calls of functions whose every use is such a call), is only loaded from as a view
 * is (slot_only_loaded). A view passed by value to such a function is walked the same way. The function
 * called learns which of its parameters are such slots or views from its pattern (ad_mark_view_slots),
 * so that a derivative made for pointers with shadows of their own is never reused for constant memory.
 * A task carries them in its block: a slot's address in its shareds (`#pragma omp task` reading a
 * constant parameter that the region shares), a view among its private copies (`firstprivate(p0)`). The
 * walk goes on at the task's loads of that field, and the task's pattern marks its block
 * (ad_mark_task_views), every pointer read from it then possibly a view. */

/* The parameter of the function called that gets call's argument `arg` (a fork's outlined function or
 * the callee), where every use of that function is a fork of it or a direct call; NULL otherwise. *index
 * gets its position. */
static LLVMValueRef param_given(LLVMValueRef call, unsigned arg, unsigned *index);

static bool only_called(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!ir_is_call(call)) return false;
    bool fork = omp_is_runtime_call(call) && omp_classify(call) == OMP_FORK && omp_fork_outlined(call) == fn;
    if (!fork && ir_called_function(call) != fn) return false;
  }
  return true;
}

/* Whether call calls through p and is not given it: a function pointer's shadow is the pointer itself. */
static bool only_callee(LLVMValueRef call, LLVMValueRef p) {
  if (LLVMGetCalledValue(call) != p) return false;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++)
    if (LLVMGetArgOperand(call, i) == p) return false;
  return true;
}

/* The functions of the module a call through a pointer may reach (ad/indirect.h): false where one has no
 * body here or takes no parameter `arg` (a library's), or none is known. */
static bool candidates_given(LLVMValueRef call, unsigned arg, ValueList *out) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  indirect_module_candidates(m, LLVMGetCalledFunctionType(call), out);
  for (size_t k = 0; k < out->len; k++)
    if (LLVMIsDeclaration(out->data[k]) || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(out->data[k])) ||
        arg >= LLVMCountParams(out->data[k]))
      return false;
  return out->len > 0;
}

static LLVMValueRef param_given(LLVMValueRef call, unsigned arg, unsigned *index) {
  if (ir_is_call(call) && call_classify(call, NULL) == CALL_INDIRECT) { /* each candidate's (params_given): the first */
    ValueList fns = {0};
    LLVMValueRef param = candidates_given(call, arg, &fns) ? LLVMGetParam(fns.data[0], arg) : NULL;
    vec_free(&fns);
    *index = arg;
    return param;
  }
  LLVMValueRef param = omp_param_receiving(call, arg, index), fn = param ? LLVMGetParamParent(param) : NULL;
  return fn && !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)) && only_called(fn) ? param : NULL;
}

/* The one value stored into a local read by loads only (-O0 keeps each parameter so); NULL otherwise. */
static LLVMValueRef kept_value(LLVMValueRef local) {
  if (!LLVMIsAAllocaInst(local)) return NULL;
  LLVMValueRef kept = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(local); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) || ir_is_lifetime_marker(user)) continue;
    if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != local || (kept && LLVMGetOperand(user, 0) != kept)) return NULL;
    kept = LLVMGetOperand(user, 0);
  }
  return kept;
}

static bool only_loaded(LLVMModuleRef m, LLVMValueRef p, long long offset, bool *within, ValueMap *seen, int depth);
static bool slot_only_loaded(LLVMModuleRef m, LLVMValueRef a, bool *within, ValueMap *seen, int depth);

/* Whether the task field store writes (a slot's address, or a view) is read in the task only by loads
 * walked the same way. */
static bool task_fields_only_loaded(LLVMModuleRef m, LLVMValueRef store, bool slot, bool *within, ValueMap *seen,
                                    int depth) {
  ValueList loads = {0};
  bool ok = omp_task_field_readers(store, &loads);
  *within = false;
  for (size_t i = 0; ok && i < loads.len; i++) {
    LLVMValueRef load = loads.data[i];
    if (slot) ok = slot_only_loaded(m, load, within, seen, depth);
    else if (!vmap_has(seen, load)) { /* met again: a task that makes tasks of its own kind */
      vmap_put(seen, load, load);
      ok = only_loaded(m, load, 0, within, seen, depth);
    }
  }
  free(loads.data);
  return ok;
}

/* Whether call passes v (a slot, or a view itself) only to parameters walked the same way. */
static bool passed_only_loaded(LLVMModuleRef m, LLVMValueRef call, LLVMValueRef v, bool slot, bool *within, ValueMap *seen,
                               int depth);

/* Whether everything the slot at address a gives is only loaded from as only_loaded says: a's uses are
 * loads of pointers, stores into it (views of their own), lifetime markers, calls that pass it on to a
 * parameter (walked the same), and a local that keeps only a (its loads walked the same). */
static bool slot_only_loaded(LLVMModuleRef m, LLVMValueRef a, bool *within, ValueMap *seen, int depth) {
  if (depth >= 16) return false;
  if (vmap_has(seen, a)) return true;
  vmap_put(seen, a, a);
  for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_lifetime_marker(user) || checkpoint_is_note(user)) continue; /* a checkpointed step notes its reads */
    if (LLVMIsAPHINode(user) || (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) != a)) { /* a slot chosen */
      if (!slot_only_loaded(m, user, within, seen, depth + 1)) return false;
      continue;
    }
    if (LLVMIsALoadInst(user)) {
      /* a checkpointed loop's function reads its variables volatile, to keep them (ad/checkpoint.c) */
      bool kept = LLVMIsAArgument(a) && checkpoint_is_loop(LLVMGetParamParent(a));
      if (LLVMGetTypeKind(LLVMTypeOf(user)) != LLVMPointerTypeKind || (LLVMGetVolatile(user) && !kept) ||
          !only_loaded(m, user, 0, within, seen, depth + 1))
        return false;
      continue;
    }
    if (LLVMIsAStoreInst(user)) {
      LLVMValueRef local = LLVMGetOperand(user, 1);
      if (local == a) continue; /* a view of its own (or the choice itself) put into the slot */
      if (kept_value(local) != a) { /* the slot's address into a task's shareds, or refused */
        if (!task_fields_only_loaded(m, user, true, within, seen, depth + 1)) return false;
        continue;
      }
      for (LLVMUseRef v = LLVMGetFirstUse(local); v; v = LLVMGetNextUse(v))
        if (LLVMIsALoadInst(LLVMGetUser(v)) && !slot_only_loaded(m, LLVMGetUser(v), within, seen, depth + 1)) return false;
      continue;
    }
    if (!ir_is_call(user) || !passed_only_loaded(m, user, a, true, within, seen, depth + 1)) return false;
  }
  return true;
}

static bool passed_only_loaded(LLVMModuleRef m, LLVMValueRef call, LLVMValueRef v, bool slot, bool *within, ValueMap *seen,
                               int depth) {
  if (LLVMGetCalledValue(call) == v) return false;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++) {
    if (LLVMGetArgOperand(call, i) != v) continue;
    unsigned index;
    LLVMValueRef param = param_given(call, i, &index);
    if (!param) return false;
    /* a checkpointed loop's steps are differentiated through requests, not patterns: their parameter
       must be one they treat as a slot that may hold a view, or one whose shadow they never use */
    LLVMValueRef fn = LLVMGetParamParent(param);
    if (checkpoint_is_loop(fn) && !(slot && (checkpoint_view_variable(param) || custom_param_needs_no_shadow(fn, index))))
      return false;
    if (slot) {
      if (!slot_only_loaded(m, param, within, seen, depth)) return false;
    } else if (!vmap_has(seen, param)) { /* met again: a recursive function */
      vmap_put(seen, param, param);
      if (!only_loaded(m, param, 0, within, seen, depth)) return false;
    }
  }
  return true;
}

/* Whether call copies floats out of p (memcpy or memmove, p its source only): such a copy reads the
 * view's shadow at ad_view_shadow_source. */
static bool copied_from(LLVMValueRef call, LLVMValueRef p) {
  if (!ir_is_call(call) || call_classify(call, NULL) != CALL_MEMCPY) return false;
  if (LLVMGetArgOperand(call, 1) != p || LLVMGetArgOperand(call, 0) == p) return false;
  DataKind data = memtype_of_copy(call);
  return data == DATA_F64 || data == DATA_F32;
}

/* Whether a load reads no pointer: floats, or an integer that holds a float's bits (a copy of one double
 * the optimiser made an i64 load and store) or a true integer. The generators read either's shadow at the
 * view's shadow address, as a float's; a pointer's shadow there would be null. */
static bool view_load(LLVMValueRef load) {
  LLVMTypeRef t = LLVMTypeOf(load);
  if (ir_is_fp_or_fp_vector(t)) return true;
  MemType k = memtype_of_access(load);
  return ir_is_int(t) && (k == MEMTYPE_FP || k == MEMTYPE_INT);
}

/* Whether every use of p, offset bytes past the choice, is a load of no pointer (view_load, at most 64
 * bytes), directly, through getelementptrs and through further choices (`c ? bc[2] : view[1]`);
 * comparisons of the address need no shadow. *within stays true while every load lies inside the stand-in: constant offsets only
 * (`c ? x[2] : bc[2]`, optimised: one load at 16 bytes from a phi of the two bases). */
static bool only_loaded(LLVMModuleRef m, LLVMValueRef p, long long offset, bool *within, ValueMap *seen, int depth) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (depth >= 16) return false;
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p) {
      long long at = offset;
      if (!ir_gep_constant_offset(m, user, &at)) *within = false;
      if (!only_loaded(m, user, at, within, seen, depth + 1)) return false;
      continue;
    }
    if ((LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) != p) || LLVMIsAPHINode(user)) {
      if (vmap_has(seen, user)) { /* around a loop (a pointer walked along the view): offsets grow */
        *within = false;
        continue;
      }
      vmap_put(seen, user, user);
      if (!only_loaded(m, user, offset, within, seen, depth + 1)) return false;
      continue;
    }
    if (LLVMIsAICmpInst(user) || (LLVMIsAPtrToIntInst(user) && omp_only_a_dependence(user))) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == p && LLVMGetOperand(user, 1) != p &&
        LLVMIsAAllocaInst(ir_strip_pointer_casts(LLVMGetOperand(user, 1))) &&
        !omp_copied_into_shareds(ir_strip_pointer_casts(LLVMGetOperand(user, 1)), &(long long){0})) { /* into a slot */
      *within = false;
      if (!slot_only_loaded(m, ir_strip_pointer_casts(LLVMGetOperand(user, 1)), within, seen, depth + 1)) return false;
      continue;
    }
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == p && LLVMGetOperand(user, 1) != p) { /* a task's copy */
      if (!task_fields_only_loaded(m, user, false, within, seen, depth + 1)) return false;
      continue;
    }
    if (checkpoint_is_note(user)) continue; /* a checkpointed step notes its reads */
    if (copied_from(user, p)) { /* floats copied out of it: the copy tells the two apart as a load does */
      *within = false;
      continue;
    }
    if (ir_is_call(user) && only_callee(user, p)) continue; /* a table's function, read through a view */
    if (ir_is_call(user)) { /* passed on by value: read in the function called as here */
      *within = false;
      if (!passed_only_loaded(m, user, p, false, within, seen, depth + 1)) return false;
      continue;
    }
    if (LLVMIsALoadInst(user) && ir_is_ptr(LLVMTypeOf(user)) && !LLVMGetVolatile(user)) {
      /* a pointer the view holds (`c->data->t[i]`): read at the view's shadow, it is the view's own where
         that is the view itself, and a view in turn */
      *within = false;
      if (vmap_has(seen, user)) continue;
      vmap_put(seen, user, user);
      if (!only_loaded(m, user, 0, within, seen, depth + 1)) return false;
      continue;
    }
    if (!LLVMIsALoadInst(user) || LLVMGetVolatile(user) || !view_load(user)) return false;
    long long end = offset + (long long)LLVMStoreSizeOfType(td, LLVMTypeOf(user));
    if (end - offset > VIEW_LOAD_BYTES) return false;
    if (offset < -STAND_IN_AT || end > STAND_IN_BYTES - STAND_IN_AT) *within = false;
  }
  return true;
}

/* A global the program registered as inactive (ad/registered.h) that p points into; NULL otherwise. */
static LLVMValueRef inactive_global(LLVMModuleRef m, LLVMValueRef p, long long *offset) {
  LLVMValueRef base = ir_strip_constant_offsets(m, p, offset);
  return LLVMIsAGlobalVariable(base) && registered_inactive_memory(base) ? base : NULL;
}

/* Such a global, chosen against memory with a shadow (`p = cond ? &tmp : c; *p *= a`, optimised): a shadow
 * of its own size, which only such choices reach, so that what goes there is dropped and the other
 * memory's derivative is right. */
static LLVMValueRef inactive_sink(LLVMModuleRef m, LLVMValueRef p) {
  long long offset = 0;
  LLVMValueRef base = inactive_global(m, p, &offset);
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

/* The parameters of the program's functions call passes v to, those not met before (into seen, and out);
 * false where one is none the walks may follow (a library's, a checkpointed loop's). */
static bool params_given(LLVMValueRef call, LLVMValueRef v, ValueMap *seen, ValueList *out) {
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++) {
    if (LLVMGetArgOperand(call, i) != v) continue;
    if (call_classify(call, NULL) == CALL_INDIRECT) { /* through a pointer: every function it may hold */
      ValueList fns = {0};
      bool ok = candidates_given(call, i, &fns);
      for (size_t k = 0; ok && k < fns.len; k++) {
        LLVMValueRef param = LLVMGetParam(fns.data[k], i);
        ok = !checkpoint_is_loop(fns.data[k]);
        if (!ok || vmap_has(seen, param)) continue;
        vmap_put(seen, param, param);
        vec_push(out, param);
      }
      vec_free(&fns);
      if (!ok) return false;
      continue;
    }
    unsigned index;
    LLVMValueRef param = param_given(call, i, &index);
    if (!param || checkpoint_is_loop(LLVMGetParamParent(param))) return false;
    if (vmap_has(seen, param)) continue;
    vmap_put(seen, param, param);
    vec_push(out, param);
  }
  return true;
}

static bool only_fcmp_users(LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
    if (!LLVMIsAFCmpInst(LLVMGetUser(u))) return false;
  return true;
}

/* Whether load reads a float that is only compared (a sort's key, read by its comparator), directly or
 * from a local it is kept in (-O0's): no derivative goes through it. */
static bool compared_float(LLVMValueRef load) {
  if (!LLVMIsALoadInst(load) || !ir_is_fp(LLVMTypeOf(load)) || LLVMGetVolatile(load) || !LLVMGetFirstUse(load)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(load); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u), local = LLVMIsAStoreInst(user) ? LLVMGetOperand(user, 1) : NULL;
    if (LLVMIsAFCmpInst(user)) continue;
    if (!local || LLVMGetOperand(user, 0) != load || !LLVMIsAAllocaInst(local)) return false;
    for (LLVMUseRef v = LLVMGetFirstUse(local); v; v = LLVMGetNextUse(v)) {
      LLVMValueRef other = LLVMGetUser(v);
      bool stored = LLVMIsAStoreInst(other) && LLVMGetOperand(other, 1) == local && LLVMGetOperand(other, 0) != local;
      if (ir_is_lifetime_marker(other) || ir_is_debug_intrinsic(other) || stored) continue;
      if (!LLVMIsALoadInst(other) || !only_fcmp_users(other)) return false;
    }
  }
  return true;
}

/* Whether pointer p needs no shadow but itself wherever it goes: through it only integers are read or
 * written (an index array: memtype says so, not an integer holding a float's bits), or MPI handles (an
 * Open MPI communicator or datatype kept in a context record is a pointer; MPICH's an integer), or it is
 * called (a function pointer's shadow is the pointer itself); it is offset, compared, chosen, passed to a
 * function of the program whose parameter goes the same way, or given to MPI as a handle itself. */
static bool integers_only(LLVMModuleRef m, LLVMValueRef p, ValueMap *seen, int depth) {
  if (depth >= 16) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if ((LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p) || LLVMIsAPHINode(user) ||
        (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) != p)) {
      if (vmap_has(seen, user)) continue;
      vmap_put(seen, user, user);
      if (!integers_only(m, user, seen, depth + 1)) return false;
      continue;
    }
    if (LLVMIsAICmpInst(user) || compared_float(user)) continue;
    bool load = LLVMIsALoadInst(user), store = LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p && LLVMGetOperand(user, 0) != p;
    if (load && ir_is_ptr(LLVMTypeOf(user)) && !LLVMGetVolatile(user) && mpi_handle_only(user)) continue; /* c->comm */
    /* a pointer read from it that needs none in turn: a table's function (`ops->energy`), an index array */
    if (load && ir_is_ptr(LLVMTypeOf(user)) && !LLVMGetVolatile(user) && !vmap_has(seen, user)) {
      vmap_put(seen, user, user);
      if (!integers_only(m, user, seen, depth + 1)) return false;
      continue;
    }
    if (load || store) {
      LLVMTypeRef t = LLVMTypeOf(load ? user : LLVMGetOperand(user, 0));
      if (!ir_is_int(t) || LLVMGetVolatile(user) || memtype_of_access(user) != MEMTYPE_INT) return false;
      continue;
    }
    if (ir_is_call(user) && (mpi_handle_argument(user, p) || only_callee(user, p))) continue;
    ValueList params = {0};
    bool ok = ir_is_call(user) && params_given(user, p, seen, &params);
    for (size_t k = 0; ok && k < params.len; k++) ok = integers_only(m, params.data[k], seen, depth + 1);
    vec_free(&params);
    if (!ok) return false;
  }
  return true;
}

/* How the pointers read from a record's field are used: only as pointers that need no shadow
 * (integers_only: an index array beside the values it indexes), or only loaded from as a view is
 * (only_loaded: a constant array beside an active one, `Batch b = {X, Y, n}` with Y constant, passed to a
 * function that reads both). */
typedef enum { FIELD_INTEGERS, FIELD_VIEWS } FieldUse;

/* Whether the pointer-sized field at byte `field` of a local object, base the address of its byte `at`, is
 * read back only as `use` says, here and in the functions base is passed to: the uses of base are
 * accesses at constant offsets that do not overlap the field (loads of it aside; stores into it give
 * their own pointers, each asked about on its own), lifetime markers, and such calls. */
static bool field_read_as(LLVMModuleRef m, LLVMValueRef base, long long at, long long field, FieldUse use, ValueMap *seen,
                          int depth);

/* The same for the pointers read from slot, which holds base (a parameter's slot that a parallel region
 * is given, to read the struct through): its loads, and the functions it is passed to, read it so. */
static bool slot_field_read_as(LLVMModuleRef m, LLVMValueRef slot, LLVMValueRef base, long long at, long long field,
                               FieldUse use, ValueMap *seen, int depth) {
  if (depth >= 16) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_lifetime_marker(user) || ir_is_debug_intrinsic(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot && LLVMGetOperand(user, 0) == base) continue;
    if (LLVMIsALoadInst(user)) {
      if (!ir_is_ptr(LLVMTypeOf(user)) || LLVMGetVolatile(user) || vmap_has(seen, user)) return false;
      vmap_put(seen, user, user);
      if (!field_read_as(m, user, at, field, use, seen, depth + 1)) return false;
      continue;
    }
    ValueList params = {0};
    bool ok = ir_is_call(user) && LLVMGetCalledValue(user) != slot && params_given(user, slot, seen, &params);
    for (size_t k = 0; ok && k < params.len; k++) ok = slot_field_read_as(m, params.data[k], NULL, at, field, use, seen, depth + 1);
    vec_free(&params);
    if (!ok) return false;
  }
  return true;
}

static bool field_read_as(LLVMModuleRef m, LLVMValueRef base, long long at, long long field, FieldUse use, ValueMap *seen,
                          int depth) {
  if (depth >= 16) return false;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  long long end = field + (long long)LLVMPointerSize(td);
  for (LLVMUseRef u = LLVMGetFirstUse(base); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_lifetime_marker(user) || ir_is_debug_intrinsic(user)) continue;
    LLVMValueRef slot = LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == base ? LLVMGetOperand(user, 1) : NULL;
    if (slot && slot != base && LLVMIsAAllocaInst(slot)) { /* the struct's address kept in a local */
      if (!slot_field_read_as(m, slot, base, at, field, use, seen, depth + 1)) return false;
      continue;
    }
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == base) {
      long long off = at;
      if (!ir_gep_constant_offset(m, user, &off) || !field_read_as(m, user, off, field, use, seen, depth + 1)) return false;
      continue;
    }
    bool load = LLVMIsALoadInst(user), store = LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == base && LLVMGetOperand(user, 0) != base;
    if (load || store) {
      long long size = (long long)LLVMStoreSizeOfType(td, LLVMTypeOf(load ? user : LLVMGetOperand(user, 0)));
      bool overlaps = at < end && field < at + size, whole = at == field && size == end - field;
      if (!overlaps || (store && whole)) continue; /* a pointer stored into the field is asked about on its own */
      if (store || !whole || !ir_is_ptr(LLVMTypeOf(user)) || LLVMGetVolatile(user) || vmap_has(seen, user)) return false;
      vmap_put(seen, user, user);
      bool within = false;
      if (!(use == FIELD_INTEGERS ? integers_only(m, user, seen, depth + 1) : only_loaded(m, user, 0, &within, seen, depth + 1)))
        return false;
      continue;
    }
    ValueList params = {0};
    bool ok = ir_is_call(user) && LLVMGetCalledValue(user) != base && params_given(user, base, seen, &params);
    for (size_t k = 0; ok && k < params.len; k++) ok = field_read_as(m, params.data[k], at, field, use, seen, depth + 1);
    vec_free(&params);
    if (!ok) return false;
  }
  return true;
}

/* Whether every pointer a global of this file holds (a qsort comparator's key, which C can only give it
 * so) is read back only as one that needs no shadow (integers_only); stores into it give their own
 * pointers, each asked about on its own. */
static bool global_integers_only(LLVMModuleRef m, LLVMValueRef g, ValueMap *seen) {
  LLVMLinkage l = LLVMGetLinkage(g);
  if ((l != LLVMInternalLinkage && l != LLVMPrivateLinkage) || !ir_is_ptr(LLVMGlobalGetValueType(g))) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == g && LLVMGetOperand(user, 0) != g) continue;
    if (!LLVMIsALoadInst(user) || !ir_is_ptr(LLVMTypeOf(user)) || LLVMGetVolatile(user) || vmap_has(seen, user)) return false;
    vmap_put(seen, user, user);
    if (!integers_only(m, user, seen, 0)) return false;
  }
  return true;
}

/* Through address v of a global: whether every pointer read from it (at any offset) is read back only as
 * one that needs no shadow (integers_only), and nothing else takes the address. */
static bool pointers_read_need_none(LLVMModuleRef m, LLVMValueRef v, ValueMap *seen, int depth) {
  if (depth > 8) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    bool gep = LLVMIsAGetElementPtrInst(user) || (LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMGetElementPtr);
    if ((gep && LLVMGetOperand(user, 0) == v) || LLVMIsABitCastInst(user)) {
      if (!pointers_read_need_none(m, user, seen, depth + 1)) return false;
      continue;
    }
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v && LLVMGetOperand(user, 0) != v) continue;
    if (!LLVMIsALoadInst(user) || LLVMGetVolatile(user)) return false;
    if (!ir_is_ptr(LLVMTypeOf(user)) || vmap_has(seen, user)) continue;
    vmap_put(seen, user, user);
    if (!integers_only(m, user, seen, 0)) return false;
  }
  return true;
}

bool ad_global_pointers_read_need_none(LLVMValueRef g) {
  ValueMap seen;
  vmap_init(&seen);
  bool none = pointers_read_need_none(LLVMGetGlobalParent(g), g, &seen, 0);
  vmap_free(&seen);
  return none;
}

/* field_read_as for a local record, or a record a parameter points into (a constructor not inlined,
 * `handle_init(&h, ops)` storing the table): the record each direct call of the function is given, a
 * local or the caller's own parameter in turn. Not as views there: a load through one compares addresses
 * where the function it is in sees the view stored (ad_load_through_view), which the caller does not. */
static bool record_field_read_as(LLVMModuleRef m, LLVMValueRef object, long long field, FieldUse use, ValueMap *seen, int depth) {
  if (LLVMIsAAllocaInst(object)) return field_read_as(m, object, 0, field, use, seen, depth);
  if (!LLVMIsAArgument(object) || use != FIELD_INTEGERS || depth >= 4) return false;
  LLVMValueRef fn = LLVMGetParamParent(object);
  unsigned index = 0;
  while (LLVMGetParam(fn, index) != object) index++;
  if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)) || !LLVMGetFirstUse(fn)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!ir_is_call(call) || ir_called_function(call) != fn || LLVMGetCalledValue(call) != fn) return false;
    long long at = 0;
    LLVMValueRef given = ir_strip_constant_offsets(m, LLVMGetArgOperand(call, index), &at);
    if (!record_field_read_as(m, given, at + field, use, seen, depth + 1)) return false;
  }
  return true;
}

typedef enum { STAND_IN_NONE, STAND_IN_SINK, STAND_IN_ZEROS, STAND_IN_ITSELF } StandIn;

/* Which stand-in operand gets in choice (see constants.h); nothing is made. */
static StandIn stand_in(LLVMValueRef choice, LLVMValueRef operand) {
  if (choice && LLVMIsAStoreInst(choice) && LLVMGetOperand(choice, 0) == operand) { /* into a slot or a task (above) */
    LLVMValueRef slot = ir_strip_pointer_casts(LLVMGetOperand(choice, 1));
    if (slot == ir_strip_pointer_casts(operand)) return STAND_IN_NONE;
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(choice)));
    bool within = false;
    ValueMap seen;
    vmap_init(&seen);
    bool loaded = LLVMIsAAllocaInst(slot) ? slot_only_loaded(m, slot, &within, &seen, 0)
                                          : task_fields_only_loaded(m, choice, false, &within, &seen, 0);
    vmap_free(&seen);
    /* or a field of a local record read back only for integers, or only as a view: the shadow record
       holds the pointer itself, through which no derivative goes (FieldUse) */
    long long field = 0;
    LLVMValueRef object = ir_strip_constant_offsets(m, LLVMGetOperand(choice, 1), &field);
    for (FieldUse use = FIELD_INTEGERS; !loaded && use <= FIELD_VIEWS; use++) {
      vmap_init(&seen);
      loaded = record_field_read_as(m, object, field, use, &seen, 0);
      vmap_free(&seen);
    }
    if (!loaded && LLVMIsAGlobalVariable(object) && field == 0) {
      vmap_init(&seen);
      loaded = global_integers_only(m, object, &seen);
      vmap_free(&seen);
    }
    return loaded ? STAND_IN_ITSELF : STAND_IN_NONE;
  }
  if (!choice || !(LLVMIsASelectInst(choice) || LLVMIsAPHINode(choice))) return STAND_IN_NONE;
  bool is_operand = false;
  unsigned first = LLVMIsASelectInst(choice) ? 1 : 0;
  for (unsigned i = first, n = (unsigned)LLVMGetNumOperands(choice); i < n; i++) is_operand |= LLVMGetOperand(choice, i) == operand;
  if (!is_operand || !LLVMGetFirstUse(choice)) return STAND_IN_NONE;
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(choice)));
  long long offset = 0;
  if (inactive_global(m, operand, &offset)) return STAND_IN_SINK;
  bool within = true;
  ValueMap seen;
  vmap_init(&seen);
  vmap_put(&seen, choice, choice);
  bool loaded = only_loaded(m, choice, 0, &within, &seen, 0);
  vmap_free(&seen);
  return !loaded ? STAND_IN_NONE : within ? STAND_IN_ZEROS : STAND_IN_ITSELF;
}

LLVMValueRef ad_stand_in_shadow(LLVMValueRef choice, LLVMValueRef operand, ShadowUse use) {
  StandIn k = stand_in(choice, operand);
  if (k == STAND_IN_NONE || k == STAND_IN_ITSELF) return k == STAND_IN_ITSELF ? operand : NULL;
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(choice)));
  return k == STAND_IN_SINK ? inactive_sink(m, operand) : zeros(m, use);
}

/* The walks back from a load: the slots met (addresses) and the choices met (values), apart, since each
 * walk stops at what it met before in its own role. */
typedef struct {
  ValueMap slots, views;
} ViewWalk;

static void walk_init(ViewWalk *w) {
  vmap_init(&w->slots);
  vmap_init(&w->views);
}

static void walk_free(ViewWalk *w) {
  vmap_free(&w->slots);
  vmap_free(&w->views);
}

static bool from_view(const Activity *act, LLVMValueRef p, ViewWalk *w);

/* Whether the generators give v a shadow of its own, not a stand-in. */
static bool has_own_shadow(const Activity *act, LLVMValueRef v) {
  return activity_shadowed(act, v) || LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v) || ir_null_based(v) ||
         ad_has_constant_shadow(v);
}

/* Whether the address a is read, through offsets and pointers loaded, from memory a parameter the pattern
 * marks points to (a task's block: its private copies, and its shareds pointer's fields). */
static bool read_from_marked(const Activity *act, LLVMValueRef a) {
  for (int i = 0; i < 16; i++) {
    a = ir_strip_pointer_casts(a);
    if (LLVMIsAArgument(a)) return activity_view_slot(act, a);
    LLVMValueRef from = LLVMIsALoadInst(a) ? LLVMGetOperand(a, 0) : NULL, kept = from ? kept_value(from) : NULL;
    LLVMValueRef mapped = from && !kept ? omp_privates_map_source(from) : NULL;
    if (kept || mapped) a = kept ? kept : mapped; /* -O0's local, or one clang's map of private copies fills */
    else if (LLVMIsAGetElementPtrInst(a) || (from && ir_is_ptr(LLVMTypeOf(a)))) a = LLVMGetOperand(a, 0);
    else return false;
  }
  return false;
}

static bool holds_view_in(const Activity *act, LLVMValueRef a, bool whole, ViewWalk *w);

/* Whether store puts into memory a pointer with no shadow of its own that shadows itself, or a view, or
 * the address of memory holding one (a record with such a field, its address kept in a slot a parallel
 * region is given: the region reads the view two loads away). */
static bool stores_view(const Activity *act, LLVMValueRef store, ViewWalk *w) {
  LLVMValueRef v = LLVMGetOperand(store, 0);
  return ir_is_ptr(LLVMTypeOf(v)) && ((!has_own_shadow(act, v) && stand_in(store, v) == STAND_IN_ITSELF) || from_view(act, v, w) ||
                                      holds_view_in(act, v, true, w));
}

/* Whether such a pointer is stored into local `a` at byte `field` of it (a record's field; -1: at any),
 * directly or through constant offsets. */
static bool local_holds_view(const Activity *act, LLVMValueRef a, long long field, ViewWalk *w) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(a)));
  ValueList at = {0};
  vec_push(&at, a);
  bool held = false;
  for (size_t k = 0; k < at.len && !held; k++)
    for (LLVMUseRef u = LLVMGetFirstUse(at.data[k]); u && !held; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == at.data[k] && at.len < 64) vec_push(&at, user);
      if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != at.data[k]) continue;
      long long offset = 0;
      if (ir_strip_constant_offsets(m, at.data[k], &offset) == a && (field < 0 || offset == field)) held = stores_view(act, user, w);
    }
  vec_free(&at);
  return held;
}

/* Whether a pointer with no shadow of its own may be in the slot at address a (above): one of its
 * parameters the pattern marks, memory read from one, or a local (or a local record's field) into which
 * such a pointer, or a view, is stored. `whole`: a is passed on, any of the fields it starts may hold one. */
static bool holds_view_in(const Activity *act, LLVMValueRef a, bool whole, ViewWalk *w) {
  a = ir_strip_pointer_casts(a);
  for (int i = 0; i < 16 && LLVMIsALoadInst(a) && kept_value(LLVMGetOperand(a, 0)); i++)
    a = ir_strip_pointer_casts(kept_value(LLVMGetOperand(a, 0)));
  if (LLVMIsAArgument(a)) return activity_view_slot(act, a) || checkpoint_view_variable(a);
  if (LLVMIsAGetElementPtrInst(a)) {
    long long field = 0;
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(a)));
    LLVMValueRef record = ir_strip_constant_offsets(m, a, &field);
    if (LLVMIsAAllocaInst(record)) {
      if (vmap_has(&w->slots, a)) return false; /* two records' fields holding pointers into each other */
      vmap_put(&w->slots, a, a);
      return local_holds_view(act, record, whole ? -1 : field, w);
    }
  }
  if (LLVMIsALoadInst(a) || LLVMIsAGetElementPtrInst(a)) return read_from_marked(act, a);
  if (vmap_has(&w->slots, a)) return false;
  vmap_put(&w->slots, a, a);
  if (LLVMIsAPHINode(a) || LLVMIsASelectInst(a)) { /* one of several slots */
    for (unsigned i = LLVMIsASelectInst(a) ? 1 : 0, n = (unsigned)LLVMGetNumOperands(a); i < n; i++)
      if (holds_view_in(act, LLVMGetOperand(a, i), whole, w)) return true;
    return false;
  }
  return LLVMIsAAllocaInst(a) && local_holds_view(act, a, whole ? -1 : 0, w);
}

static bool holds_view(const Activity *act, LLVMValueRef a, ViewWalk *w) { return holds_view_in(act, a, false, w); }

/* Whether the shadow of p comes, through getelementptrs and choices, from a choice's operand that shadows
 * itself (one with no shadow of its own, as act says, that the generators would give a stand-in), from a
 * slot that may hold such a pointer, or from a parameter the pattern marks. */
static bool from_view(const Activity *act, LLVMValueRef p, ViewWalk *w) {
  while (LLVMIsAGetElementPtrInst(p)) p = LLVMGetOperand(p, 0);
  /* a pointer read from a slot holding views, or from a view (a pointer it holds: only_loaded) */
  if (LLVMIsALoadInst(p) && ir_is_ptr(LLVMTypeOf(p))) return holds_view(act, LLVMGetOperand(p, 0), w) || from_view(act, LLVMGetOperand(p, 0), w);
  if (LLVMIsAArgument(p)) return activity_view_slot(act, p); /* a view passed in */
  if (!LLVMIsASelectInst(p) && !LLVMIsAPHINode(p)) return false;
  if (vmap_has(&w->views, p)) return false;
  vmap_put(&w->views, p, p);
  for (unsigned i = LLVMIsASelectInst(p) ? 1 : 0, n = (unsigned)LLVMGetNumOperands(p); i < n; i++) {
    LLVMValueRef op = LLVMGetOperand(p, i);
    if ((!has_own_shadow(act, op) && stand_in(p, op) == STAND_IN_ITSELF) || from_view(act, op, w)) return true;
  }
  return false;
}

static bool through_view(const Activity *act, LLVMValueRef p) {
  while (LLVMIsAGetElementPtrInst(p)) p = LLVMGetOperand(p, 0);
  if (!LLVMIsASelectInst(p) && !LLVMIsAPHINode(p) && !LLVMIsAArgument(p) && !(LLVMIsALoadInst(p) && ir_is_ptr(LLVMTypeOf(p))))
    return false; /* most loads: no choice, slot or parameter to walk */
  ViewWalk w;
  walk_init(&w);
  bool r = from_view(act, p, &w);
  walk_free(&w);
  return r;
}

bool ad_load_through_view(const Activity *act, LLVMValueRef load) {
  return LLVMIsALoadInst(load) && through_view(act, LLVMGetOperand(load, 0));
}

bool ad_copy_through_view(const Activity *act, LLVMValueRef call) {
  return ir_is_call(call) && call_classify(call, NULL) == CALL_MEMCPY && through_view(act, LLVMGetArgOperand(call, 1));
}

/* instead where the view's shadow address is its address (it shadows itself), else the shadow */
static LLVMValueRef unless_on_itself(LLVMBuilderRef b, LLVMValueRef shadow, LLVMValueRef address, LLVMValueRef instead) {
  LLVMValueRef on_itself = LLVMBuildICmp(b, LLVMIntEQ, shadow, address, "on.constant");
  return LLVMBuildSelect(b, on_itself, instead, shadow, "");
}

LLVMValueRef ad_view_shadow_address(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef shadow, LLVMValueRef address,
                                    ShadowUse use) {
  return unless_on_itself(b, shadow, address, zeros(m, use));
}

LLVMValueRef ad_view_shadow_source(LLVMBuilderRef b, LLVMValueRef shadow, LLVMValueRef address) {
  return unless_on_itself(b, shadow, address, LLVMConstNull(LLVMTypeOf(shadow)));
}

char *ad_mark_view_slots(const Activity *act, LLVMValueRef call, char *pattern) {
  char *marks = NULL;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++) {
    LLVMValueRef arg = LLVMGetArgOperand(call, i);
    unsigned index;
    LLVMValueRef param = ir_is_ptr(LLVMTypeOf(arg)) ? param_given(call, i, &index) : NULL;
    if (!param || (pattern[index] != 'd' && pattern[index] != 'n')) continue; /* no shadow: nothing to mark */
    ViewWalk w;
    walk_init(&w);
    bool view = holds_view_in(act, arg, true, &w) || from_view(act, arg, &w);
    walk_free(&w);
    if (!view) continue;
    if (!marks) {
      unsigned np = LLVMCountParams(LLVMGetParamParent(param));
      marks = xcalloc(np + 1, 1);
      memset(marks, '-', np);
    }
    marks[index] = 'v';
  }
  if (!marks) return pattern;
  char *marked = xasprintf("%s@%s", pattern, marks);
  free(pattern);
  free(marks);
  return marked;
}

char *ad_mark_task_views(const Activity *act, LLVMValueRef alloc, char *pattern) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(alloc));
  bool view = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !view; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !view; i = LLVMGetNextInstruction(i)) {
      bool shareds;
      long long offset;
      if (!LLVMIsAStoreInst(i) || !ir_is_ptr(LLVMTypeOf(LLVMGetOperand(i, 0))) ||
          omp_task_field_stored(i, &shareds, &offset) != alloc)
        continue; /* not into the task's block or its shareds */
      ViewWalk w;
      walk_init(&w);
      LLVMValueRef v = LLVMGetOperand(i, 0);
      view = (!has_own_shadow(act, v) && stand_in(i, v) == STAND_IN_ITSELF) || holds_view(act, v, &w) || from_view(act, v, &w);
      walk_free(&w);
    }
  if (!view) return pattern;
  char *marked = xasprintf("%s@-v", pattern);
  free(pattern);
  return marked;
}
