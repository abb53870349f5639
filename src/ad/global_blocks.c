/* Globals holding a heap block (see global_blocks.h). */
#include "ad/global_blocks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ad/global_shadows.h"
#include "ad/registered.h"
#include "analysis/calls.h"
#include "ir/ir.h"

static ValueMap verdicts; /* global -> 1 qualifies, 2 not; 3 and 4 the same, and its block may hold active data */
static bool verdicts_made;

/* A fresh block's call: the stored value, through casts. */
static LLVMValueRef allocation(LLVMValueRef v) {
  v = ir_strip_pointer_casts(v);
  if (!ir_is_call(v)) return NULL;
  CallKind k = call_classify(v, NULL);
  return (k == CALL_ALLOC && call_alloc_slot(v) < 0) || k == CALL_REALLOC ? v : NULL;
}

/* What set-up code may store into such a global: null, a fresh block, what another global holds. */
static bool setup_value(LLVMValueRef v) {
  v = ir_strip_pointer_casts(v);
  if (LLVMIsAConstantPointerNull(v) || LLVMIsUndef(v) || allocation(v)) return true;
  return LLVMIsALoadInst(v) && LLVMIsAGlobalVariable(ir_strip_pointer_casts(LLVMGetOperand(v, 0)));
}

typedef enum { WALK_POINTERS, WALK_ACTIVE } Walk;

/* Walks the memory pointer p reaches (a load of the global): its addresses, merges, a local slot it is
 * kept in (-O0), the module's functions it is passed to. WALK_POINTERS: whether the memory is read or
 * written as pointers. WALK_ACTIVE: whether code a derivative runs may put active data there (a store of
 * floats that vary, an atomic, a copy into it, a call Parad does not know taking it). */
static bool walk(LLVMValueRef p, Walk what, ValueMap *seen, int depth) {
  if (depth > 32 || vmap_has(seen, p)) return false;
  vmap_put(seen, p, p);
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (what == WALK_ACTIVE && ad_outside_derivatives(user)) continue;
    if (LLVMIsALoadInst(user)) {
      if (what == WALK_POINTERS && ir_is_ptr(ir_scalar_type(LLVMTypeOf(user)))) return true;
      continue;
    }
    if (LLVMIsAStoreInst(user)) {
      LLVMValueRef stored = LLVMGetOperand(user, 0), at = LLVMGetOperand(user, 1);
      if (stored == p) { /* kept in a local slot: followed through its loads */
        LLVMValueRef slot = ir_strip_pointer_casts(at);
        if (!LLVMIsAAllocaInst(slot)) continue;
        for (LLVMUseRef v = LLVMGetFirstUse(slot); v; v = LLVMGetNextUse(v))
          if (LLVMIsALoadInst(LLVMGetUser(v)) && walk(LLVMGetUser(v), what, seen, depth + 1)) return true;
        continue;
      }
      if (what == WALK_POINTERS && ir_is_ptr(ir_scalar_type(LLVMTypeOf(stored)))) return true;
      if (what == WALK_ACTIVE && ad_stored_value_may_be_active(stored)) return true;
      continue;
    }
    if (LLVMIsAAtomicRMWInst(user) || LLVMIsAAtomicCmpXchgInst(user)) {
      if (what == WALK_ACTIVE) return true;
      continue;
    }
    bool constant_address = LLVMIsAConstantExpr(user) &&
                            (LLVMGetConstOpcode(user) == LLVMGetElementPtr || LLVMGetConstOpcode(user) == LLVMBitCast);
    if (constant_address || LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
        LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) {
      if (walk(user, what, seen, depth + 1)) return true;
      continue;
    }
    if (!ir_is_call_site(user)) continue; /* a comparison, a pointer made an integer */
    LLVMValueRef callee = ir_called_function(user);
    switch (call_classify(user, NULL)) {
    case CALL_DEBUG:
    case CALL_INACTIVE:
    case CALL_FREE:
    case CALL_MEMSET: continue;
    case CALL_MEMCPY:
      if (what == WALK_ACTIVE && LLVMGetArgOperand(user, 0) == p) return true;
      continue;
    case CALL_MODULE: {
      unsigned i = 0;
      for (LLVMValueRef param = LLVMGetFirstParam(callee); param; param = LLVMGetNextParam(param), i++)
        if (i < ir_num_call_args(user) && LLVMGetArgOperand(user, i) == p && walk(param, what, seen, depth + 1)) return true;
      continue;
    }
    default:
      if (what == WALK_ACTIVE) return true; /* a region's function, MPI, a library: anything */
      continue;
    }
  }
  return false;
}

static bool walk_loads(LLVMValueRef g, Walk what) {
  ValueMap seen;
  vmap_init(&seen);
  bool found = false;
  for (LLVMUseRef u = LLVMGetFirstUse(g); u && !found; u = LLVMGetNextUse(u))
    if (LLVMIsALoadInst(LLVMGetUser(u))) found = walk(LLVMGetUser(u), what, &seen, 0);
  vmap_free(&seen);
  return found;
}

bool global_bytes_hold_pointers(LLVMValueRef g) {
  ValueMap seen;
  vmap_init(&seen);
  bool found = walk(g, WALK_POINTERS, &seen, 0);
  vmap_free(&seen);
  return found;
}

/* Whether a use of the global's address keeps it one the compiler sees whole (global_blocks.h). */
static bool use_allowed(LLVMValueRef g, LLVMValueRef user) {
  if (LLVMIsALoadInst(user)) return !LLVMGetVolatile(user) && LLVMGetOrdering(user) == LLVMAtomicOrderingNotAtomic;
  if (LLVMIsAStoreInst(user))
    return LLVMGetOperand(user, 1) == g && LLVMGetOperand(user, 0) != g && !LLVMGetVolatile(user) &&
           (!ad_outside_derivatives(user) || setup_value(LLVMGetOperand(user, 0)));
  if (ir_is_call(user) && call_classify(user, NULL) == CALL_ALLOC && call_alloc_slot(user) == 0)
    return LLVMGetArgOperand(user, 0) == g; /* posix_memalign(&g, ...) */
  return false;
}

/* Whether files other than g's may set g: it is declared here, or not static in a file without `main`. */
static bool set_elsewhere(LLVMValueRef g) {
  if (!LLVMGetInitializer(g)) return true;
  if (LLVMGetLinkage(g) == LLVMInternalLinkage || LLVMGetLinkage(g) == LLVMPrivateLinkage) return false;
  LLVMValueRef main_fn = LLVMGetNamedFunction(LLVMGetGlobalParent(g), "main");
  return !main_fn || LLVMIsDeclaration(main_fn);
}

static bool pointer_global(LLVMValueRef g) {
  return LLVMIsAGlobalVariable(g) && !LLVMIsGlobalConstant(g) && !LLVMIsExternallyInitialized(g) && !LLVMIsThreadLocal(g) &&
         !registered_inactive_memory(g) && ir_is_ptr(LLVMGlobalGetValueType(g));
}

bool global_block_set_elsewhere(LLVMValueRef load) {
  LLVMValueRef g = ir_strip_pointer_casts(LLVMGetOperand(load, 0));
  if (!pointer_global(g) || !set_elsewhere(g)) return false;
  ValueMap seen;
  vmap_init(&seen);
  bool active = walk(load, WALK_ACTIVE, &seen, 0);
  vmap_free(&seen);
  return active;
}

static bool qualifies(LLVMValueRef g) {
  if (!pointer_global(g) || set_elsewhere(g)) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u))
    if (!use_allowed(g, LLVMGetUser(u))) return false;
  return !walk_loads(g, WALK_POINTERS);
}

static uintptr_t verdict(LLVMValueRef g) {
  if (!verdicts_made) vmap_init(&verdicts), verdicts_made = true;
  uintptr_t v = (uintptr_t)vmap_get(&verdicts, g);
  if (!v) {
    v = !qualifies(g) ? 2 : walk_loads(g, WALK_ACTIVE) ? 3 : 1;
    vmap_put(&verdicts, g, (void *)v);
  }
  return v;
}

bool global_block_qualifies(LLVMValueRef g) {
  return g && LLVMIsAGlobalVariable(g) && ad_deciding() && verdict(g) != 2;
}

bool global_block_may_hold_active(LLVMValueRef g) { return global_block_qualifies(g) && verdict(g) == 3; }

static LLVMValueRef size_arg(LLVMBuilderRef b, LLVMValueRef call, int i, LLVMTypeRef i64) {
  return i < 0 ? LLVMConstInt(i64, 1, 0) : LLVMBuildIntCast2(b, LLVMGetArgOperand(call, (unsigned)i), i64, 0, "");
}

/* The bytes of the block call allocates. */
static LLVMValueRef block_bytes(LLVMBuilderRef b, LLVMValueRef call, LLVMTypeRef i64) {
  if (call_classify(call, NULL) == CALL_REALLOC) return size_arg(b, call, 1, i64);
  int arg[2];
  if (call_alloc_shape(call, arg)) return size_arg(b, call, arg[0], i64);
  return LLVMBuildMul(b, size_arg(b, call, arg[0], i64), size_arg(b, call, arg[1], i64), "bytes");
}

static void runtime_call(LLVMBuilderRef b, const char *name, LLVMValueRef p, LLVMValueRef bytes) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(p));
  LLVMTypeRef params[2] = {LLVMTypeOf(p), LLVMInt64TypeInContext(c)};
  LLVMValueRef args[2] = {p, bytes};
  ir_call_named(b, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, bytes ? 2 : 1, 0), args, bytes ? 2 : 1);
}

static void note_global(LLVMBuilderRef b, LLVMValueRef g) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(g));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), ptr = LLVMGlobalGetValueType(g);
  ValueList users = {0};
  for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) vec_push(&users, LLVMGetUser(u));
  for (size_t i = 0; i < users.len; i++) {
    LLVMValueRef user = users.data[i], call;
    if (LLVMIsAStoreInst(user) && (call = allocation(LLVMGetOperand(user, 0)))) {
      if (call_classify(call, NULL) == CALL_REALLOC) { /* the old block's shadows go */
        LLVMPositionBuilderBefore(b, call);
        runtime_call(b, "__parad_rt_block_forget", LLVMGetArgOperand(call, 0), NULL);
      }
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(user));
      runtime_call(b, "__parad_rt_block_note", LLVMGetOperand(user, 0), block_bytes(b, call, i64));
    } else if (ir_is_call(user) && LLVMGetNextInstruction(user)) { /* posix_memalign(&g, alignment, size) */
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(user));
      LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntEQ, user, LLVMConstNull(LLVMTypeOf(user)), "");
      LLVMValueRef block = LLVMBuildSelect(b, ok, LLVMBuildLoad2(b, ptr, g, ""), LLVMConstNull(ptr), "");
      runtime_call(b, "__parad_rt_block_note", block, block_bytes(b, user, i64));
    } else if (LLVMIsALoadInst(user)) { /* the program freeing the block */
      for (LLVMUseRef v = LLVMGetFirstUse(user); v; v = LLVMGetNextUse(v)) {
        LLVMValueRef free_call = LLVMGetUser(v);
        if (!ir_is_call(free_call) || call_classify(free_call, NULL) != CALL_FREE ||
            LLVMGetArgOperand(free_call, call_freed_arg(free_call)) != user)
          continue;
        LLVMPositionBuilderBefore(b, free_call);
        runtime_call(b, "__parad_rt_block_forget", user, NULL);
      }
    }
  }
  vec_free(&users);
}

void global_blocks_note(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (global_block_may_hold_active(g)) note_global(b, g);
  LLVMDisposeBuilder(b);
}

void global_block_keep(LLVMBuilderRef b, LLVMValueRef g, LLVMValueRef s, unsigned kind) {
  LLVMTypeRef ptr = LLVMGlobalGetValueType(g), i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(ptr));
  LLVMTypeRef params[3] = {ptr, i32, ptr};
  LLVMValueRef args[3] = {LLVMBuildLoad2(b, ptr, g, ""), LLVMConstInt(i32, kind, 0), LLVMBuildLoad2(b, ptr, s, "")};
  ir_call_named(b, "__parad_rt_block_keep", LLVMFunctionType(LLVMVoidTypeInContext(LLVMGetTypeContext(ptr)), params, 3, 0), args, 3);
  LLVMBuildStore(b, LLVMConstNull(ptr), s); /* the next entry sets it again */
}

void global_blocks_leave(LLVMBuilderRef b, unsigned kind) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)))));
  LLVMValueRef arg = LLVMConstInt(i32, kind, 0);
  ir_call_named(b, "__parad_rt_blocks_leave", LLVMFunctionType(LLVMVoidTypeInContext(LLVMGetTypeContext(i32)), &i32, 1, 0), &arg, 1);
}

void global_block_enter(LLVMBuilderRef b, LLVMValueRef g, LLVMValueRef s, unsigned kind) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(g));
  LLVMTypeRef ptr = LLVMGlobalGetValueType(g), i32 = LLVMInt32TypeInContext(c);
  LLVMTypeRef params[3] = {ptr, i32, ptr};
  LLVMValueRef args[3] = {LLVMBuildLoad2(b, ptr, g, ""), LLVMConstInt(i32, kind, 0),
                          LLVMBuildGlobalStringPtr(b, LLVMGetValueName(g), "global")};
  LLVMBuildStore(b, ir_call_named(b, "__parad_rt_block_shadow", LLVMFunctionType(ptr, params, 3, 0), args, 3), s);
}

void global_blocks_end(void) {
  if (verdicts_made) vmap_free(&verdicts);
  verdicts_made = false;
}
