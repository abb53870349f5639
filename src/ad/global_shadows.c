/* Shadows of mutable globals (see global_shadows.h). */
#include "ad/global_shadows.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ad/body.h"
#include "ad/cache_keys.h"
#include "ad/global_blocks.h"
#include "ad/registered.h"
#include "ad/request.h"
#include "analysis/calls.h"
#include "ir/ir.h"

static bool eligible(LLVMValueRef g) {
  if (!g || !LLVMIsAGlobalVariable(g) || LLVMIsGlobalConstant(g) || !LLVMGetInitializer(g) || LLVMIsExternallyInitialized(g) ||
      LLVMIsThreadLocal(g) || registered_inactive_memory(g))
    return false;
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  if (ir_contains_ptr(t)) return global_block_qualifies(g); /* pointers to heap blocks (ad/global_blocks.h) */
  /* a heap block of constant size stored into a global, which the optimiser made a global of its own
     (`work.body`, bytes): like a global of floats where it holds no pointers */
  if (LLVMGetTypeKind(t) == LLVMArrayTypeKind && LLVMGetElementType(t) == LLVMInt8TypeInContext(LLVMGetTypeContext(t)))
    return !global_bytes_hold_pointers(g) || global_block_qualifies(g); /* (holding pointers: as a struct's) */
  return ir_contains_fp(t);
}

bool ad_is_mutable_global_with_shadow(LLVMValueRef g) { return eligible(g ? ir_strip_pointer_casts(g) : NULL); }

static bool arithmetic_intrinsic(LLVMValueRef call) {
  static const char *const names[] = {"llvm.fmuladd.", "llvm.fma.", "llvm.fabs.", "llvm.sqrt.", "llvm.minnum.",
                                      "llvm.maxnum.", "llvm.copysign.", "llvm.floor.", "llvm.ceil.", "llvm.trunc."};
  const char *name = ir_called_name(call);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strncmp(name, names[i], strlen(names[i]))) return true;
  return false;
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
  case LLVMCall: /* arithmetic the optimiser writes as an intrinsic (2 - 0.05 * i as a fmuladd) */
    if (!arithmetic_intrinsic(v)) return true;
    for (unsigned i = 0, n = ir_num_call_args(v); i < n; i++)
      if (may_vary(LLVMGetArgOperand(v, i), depth + 1)) return true;
    return false;
  default: return true; /* loads, calls, arguments' uses: anything */
  }
}

/* While derivatives are generated (ad_global_shadows_begin): per function of the module then, whether a
 * request reaches it (1) or not (2). */
static ValueMap reached;
static bool deciding;

bool ad_deciding(void) { return deciding; }

/* A use in a function no derivative runs (`main`, the program's set-up): its stores happen before a
 * derivative's entry, where the shadow is zeroed, or in calls that are not differentiated. */
bool ad_outside_derivatives(LLVMValueRef user) {
  if (!deciding || !LLVMIsAInstruction(user) || !LLVMGetInstructionParent(user)) return false;
  return vmap_get(&reached, LLVMGetBasicBlockParent(LLVMGetInstructionParent(user))) == (void *)2;
}

/* An integer stored that may be a float's bits moved as an integer (a copy the optimiser made of i64s):
 * anything of 32 bits or more that is not a constant or made from one. */
static bool bits_of_float(LLVMValueRef v) {
  LLVMTypeRef t = ir_scalar_type(LLVMTypeOf(v));
  return ir_is_int(t) && LLVMGetIntTypeWidth(t) >= 32 && !LLVMIsAConstant(v) && LLVMIsAInstruction(v) &&
         LLVMGetInstructionOpcode(v) != LLVMSExt && LLVMGetInstructionOpcode(v) != LLVMZExt;
}

bool ad_stored_value_may_be_active(LLVMValueRef stored) {
  return (ir_contains_fp(LLVMTypeOf(stored)) && may_vary(stored, 0)) || bits_of_float(stored);
}

static bool address_may_hold_active(LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    /* its address stored, wherever (the set-up pointing a model at its states, `rtM->contStates = &rtX`):
       code a derivative runs may write through that pointer */
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) != v) return true;
    if (ad_outside_derivatives(user)) continue;
    if (LLVMIsAStoreInst(user)) {
      if (ad_stored_value_may_be_active(LLVMGetOperand(user, 0))) return true;
      continue;
    }
    if (LLVMIsAConstantExpr(user) || LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) {
      if (address_may_hold_active(user)) return true;
      continue;
    }
    /* a library function that reads it or writes text into it (a log line formatted into a static buffer,
       then printed): whatever it writes carries no derivative */
    if (ir_is_call(user) && LLVMGetCalledValue(user) != v && call_classify(user, NULL) == CALL_INACTIVE) continue;
    return true; /* a call, a phi, a select, a store of its address: anything may write through it */
  }
  return false;
}

/* The shadows made, per use (zeroed at every derivative's entry); per global whether it may hold active
 * data, and per function whether it reaches such a global (1 yes, 2 no): the latter made when a function
 * it does not hold is asked about (copies of bodies and checkpointed loops' functions are made as
 * derivatives are generated). */
typedef struct {
  LLVMValueRef shadow, global;
  unsigned lane;
  signed char carried; /* carried_through's answer for the global: 1, 0, -1 not asked yet */
} Made;
static VEC(Made) made[2];
static ValueMap holding, reaching;
static bool holding_made, reaching_made;
/* The module's cache keys (ad/cache_keys.h) and the NaNs stored there, found once for all the entries. */
static ValueList cache_keys, cache_key_nans;
static bool keys_found;
static bool taken_reaches; /* a function whose address is taken reaches one: a call through a pointer does */

bool ad_global_may_hold_active(LLVMValueRef g) {
  g = g ? ir_strip_pointer_casts(g) : NULL;
  if (!eligible(g)) return false;
  if (!deciding) return address_may_hold_active(g); /* before: every use counts (a checkpointed loop's notes) */
  if (!holding_made) vmap_init(&holding), holding_made = true;
  uintptr_t known = (uintptr_t)vmap_get(&holding, g);
  if (!known) { /* (a struct holding pointers may hold active floats of its own too) */
    bool active = address_may_hold_active(g) || global_block_may_hold_active(g);
    vmap_put(&holding, g, (void *)(known = active ? 1 : 2));
  }
  return known == 1;
}

/* The shadow global of g for `use`, and for vector forward mode's direction `lane` (0: the only one). */
static LLVMValueRef shadow_global(LLVMValueRef g, ShadowUse use, unsigned lane) {
  char *name = lane ? xasprintf("%s.parad.tangents.%u", LLVMGetValueName(g), lane)
                    : xasprintf("%s.parad.%s", LLVMGetValueName(g), use == SHADOW_READ ? "tangents" : "adjoints");
  LLVMModuleRef m = LLVMGetGlobalParent(g);
  LLVMValueRef s = LLVMGetNamedGlobal(m, name);
  if (!s) {
    LLVMTypeRef t = LLVMGlobalGetValueType(g);
    s = LLVMAddGlobal(m, t, name);
    LLVMSetLinkage(s, LLVMInternalLinkage);
    LLVMSetAlignment(s, LLVMGetAlignment(g));
    LLVMSetInitializer(s, LLVMConstNull(t));
    Made made_one = {s, g, lane, -1};
    vec_push(&made[use == SHADOW_ADD], made_one);
    /* the globals whose addresses its slots may hold (`rtM->contStates = &rtX`): their shadows too, which
       its shadow's slots point to from each entry on (global_block_enter) */
    LLVMValueRef held[MAX_HELD_ADDRESSES];
    size_t n = global_holds_blocks(g) && global_block_qualifies(g) ? global_block_addresses(g, held, MAX_HELD_ADDRESSES) : 0;
    for (size_t i = 0; i < n; i++) {
      LLVMValueRef other = ir_address_base(held[i]);
      if (other != g && eligible(other)) shadow_global(other, use, lane);
    }
  }
  free(name);
  return s;
}

LLVMValueRef ad_global_shadow(LLVMValueRef g, ShadowUse use) { return shadow_global(g, use, 0); }

/* The runtime's kind of shadow for a use and a direction of vector forward mode (global_blocks.h). */
static unsigned block_kind(ShadowUse use, unsigned lane) { return (use == SHADOW_ADD) * 32 + lane; }

LLVMValueRef ad_global_shadow_of_kind(LLVMValueRef g, unsigned kind) {
  return eligible(g) ? shadow_global(g, kind >= 32 ? SHADOW_ADD : SHADOW_READ, kind % 32) : NULL;
}

LLVMValueRef ad_block_global_of_adjoints(LLVMValueRef s) {
  for (size_t i = 0; i < made[1].len; i++)
    if (made[1].data[i].shadow == s && global_holds_blocks(made[1].data[i].global)) return made[1].data[i].global;
  return NULL;
}

LLVMValueRef ad_global_tangent_lane(LLVMValueRef v, unsigned lane) {
  v = ir_strip_pointer_casts(v);
  if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr) /* the same indices into the lane's */
    return ir_const_gep_over(v, ad_global_tangent_lane(LLVMGetOperand(v, 0), lane));
  return shadow_global(v, SHADOW_READ, lane);
}

static bool address_taken(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!ir_is_call_site(user) || LLVMGetCalledValue(user) != fn) return true;
  }
  return false;
}

static bool reaches(LLVMValueRef fn) { return vmap_get(&reaching, fn) == (void *)1; }

/* A fixed point over the module's functions: one reaches where it names such a global, a function that
 * reaches, or calls through a pointer while a function whose address is taken reaches. */
static void find_reaching(LLVMModuleRef m) {
  if (reaching_made) vmap_free(&reaching);
  vmap_init(&reaching);
  reaching_made = true;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) vmap_put(&reaching, f, (void *)2);
  bool any_taken = false;
  for (bool changed = true; changed;) {
    changed = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
      if (reaches(f) || LLVMIsDeclaration(f)) continue;
      bool found = false;
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !found; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !found; i = LLVMGetNextInstruction(i)) {
          found = any_taken && ir_is_call_site(i) && !ir_called_function(i) && !LLVMIsAInlineAsm(LLVMGetCalledValue(i));
          for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(i); k < n && !found; k++) {
            LLVMValueRef op = LLVMGetOperand(i, k);
            if (op && LLVMIsAFunction(op)) found = reaches(op);
            else if (op && LLVMIsAConstantExpr(op)) found = ad_global_may_hold_active(ir_address_base(op));
            else if (op && LLVMIsAGlobalVariable(op)) found = ad_global_may_hold_active(op);
          }
        }
      if (!found) continue;
      vmap_put(&reaching, f, (void *)1);
      any_taken |= address_taken(f);
      changed = true;
    }
  }
  taken_reaches = any_taken;
}

bool ad_reaches_active_global(LLVMValueRef fn) {
  if (!fn || !LLVMIsAFunction(fn)) return false;
  fn = ad_body_original(fn);
  if (!reaching_made || !vmap_has(&reaching, fn)) find_reaching(LLVMGetGlobalParent(fn));
  return reaches(fn);
}

bool ad_call_reaches_active_global(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!LLVMIsAFunction(callee)) { /* through a pointer */
    if (LLVMIsAInlineAsm(callee)) return false;
    if (!reaching_made) find_reaching(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call))));
    return taken_reaches;
  }
  if (ad_reaches_active_global(callee)) return true;
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++) /* a region's or a task's function */
    if (ad_reaches_active_global(ir_strip_pointer_casts(LLVMGetArgOperand(call, i)))) return true;
  return false;
}

/* The functions m's requests reach: theirs, and every function their code names (callees, regions' and
 * tasks' functions; through a pointer, any whose address is taken). */
static void find_reached(LLVMModuleRef m) {
  ValueList stack = {0};
  bool indirect = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    vmap_put(&reached, f, (void *)2);
    if (LLVMIsDeclaration(f) && !strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        for (unsigned i = 0, n = ir_is_call(LLVMGetUser(u)) ? ir_num_call_args(LLVMGetUser(u)) : 0; i < n; i++) {
          LLVMValueRef a = ir_strip_pointer_casts(LLVMGetArgOperand(LLVMGetUser(u), i));
          if (LLVMIsAFunction(a)) vec_push(&stack, a);
        }
  }
  while (stack.len) {
    LLVMValueRef f = stack.data[--stack.len];
    if (LLVMIsDeclaration(f) || vmap_get(&reached, f) == (void *)1) continue;
    vmap_put(&reached, f, (void *)1);
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
        if (address_taken(g)) vec_push(&stack, g);
    }
  }
  vec_free(&stack);
}

void ad_global_shadows_begin(LLVMModuleRef m) {
  vmap_init(&reached);
  find_reached(m);
  deciding = true;
  global_blocks_note(m);
}

void ad_global_shadows_end(void) {
  if (deciding) vmap_free(&reached);
  deciding = false;
  vec_free(&made[0]);
  vec_free(&made[1]);
  vec_free(&cache_keys);
  vec_free(&cache_key_nans);
  keys_found = false;
  if (reaching_made) vmap_free(&reaching);
  if (holding_made) vmap_free(&holding);
  global_blocks_end();
  reaching_made = holding_made = false;
}

/* A memset of shadow s to zero before b's position: of all of it, or of nothing where `when` (an i1, if
 * given) is false. */
static void zero(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef s, LLVMValueRef when) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  LLVMValueRef bytes = LLVMConstInt(i64, ir_type_size(m, LLVMGlobalGetValueType(s)), 0);
  if (when) bytes = LLVMBuildSelect(b, when, bytes, LLVMConstNull(i64), "");
  LLVMBuildMemSet(b, s, LLVMConstInt(LLVMInt8TypeInContext(c), 0, 0), bytes, LLVMGetAlignment(s));
}

/* The derivative a request's code calls at or after `before` (the tangent's call; after the tape's
 * beginning, the augmented forward sweep's): the first call of a function the module defines. */
static LLVMValueRef derivative_from(LLVMValueRef before) {
  for (LLVMValueRef i = before; i; i = LLVMGetNextInstruction(i)) {
    LLVMValueRef f = ir_is_call(i) ? ir_called_function(i) : NULL;
    if (f && !LLVMIsDeclaration(f)) return f;
  }
  return NULL;
}

static bool derivatives_run(LLVMValueRef fn) { return vmap_get(&reached, fn) == (void *)1; }

/* Each shadow made for `use` of a global of `pointers` (holding a heap block) or not, before `before`:
 * zeroed, or set to a zeroed shadow of the block (null where the derivative sets the global before it
 * reads it). */
static void enter(LLVMModuleRef m, LLVMValueRef before, ShadowUse use, bool pointers) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMPositionBuilderBefore(b, before);
  /* (once an entry) the keys of caches the derivative's functions read */
  if (pointers && deciding && !keys_found) cache_keys_find(m, derivatives_run, &cache_keys, &cache_key_nans), keys_found = true;
  for (size_t i = 0; pointers && i < cache_keys.len; i++)
    LLVMBuildStore(b, cache_key_nans.data[i], cache_keys.data[i]);
  LLVMValueRef fn = pointers ? derivative_from(before) : NULL;
  unsigned long long entered = 0; /* the kinds whose entry the runtime was told of, a bit each */
  for (size_t i = 0; i < made[use == SHADOW_ADD].len; i++) {
    const Made *s = &made[use == SHADOW_ADD].data[i];
    if (global_holds_blocks(s->global) != pointers) continue;
    if (pointers && !(entered >> s->lane & 1)) {
      global_blocks_enter(b, block_kind(use, s->lane));
      entered |= 1ull << s->lane;
    }
    if (!pointers)
      zero(b, m, s->shadow, NULL);
    else if (global_block_read_at_entry(fn, s->global))
      global_block_enter(b, fn, s->global, s->shadow, block_kind(use, s->lane));
    else
      LLVMBuildStore(b, LLVMConstNull(LLVMGlobalGetValueType(s->shadow)), s->shadow);
  }
  LLVMDisposeBuilder(b);
}

void ad_zero_global_shadows(LLVMModuleRef m, LLVMValueRef before, ShadowUse use) { enter(m, before, use, false); }

/* Whether a shadow made is of a global of floats and integers (not one holding heap blocks). */
static bool of_numbers(const Made *s) { return !global_holds_blocks(s->global); }

/* Whether adjoints of globals are zeroed is decided at run time, where a split-mode gradient may be open
 * (runtime/split_globals.c): before b's position, that as an i1. NULL where no global of floats has
 * adjoints (nothing to decide). */
static LLVMValueRef split_open(LLVMModuleRef m, LLVMBuilderRef b) {
  bool any = false;
  for (size_t i = 0; i < made[1].len; i++) any |= of_numbers(&made[1].data[i]);
  if (!any) return NULL;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
  LLVMValueRef open = ir_call_named(b, "__parad_rt_split_open", LLVMFunctionType(i32, NULL, 0, 0), NULL, 0);
  return LLVMBuildICmp(b, LLVMIntNE, open, LLVMConstNull(i32), "split.open");
}

void ad_zero_global_adjoints_unless_split(LLVMModuleRef m, LLVMValueRef before) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMPositionBuilderBefore(b, before);
  LLVMValueRef open = split_open(m, b), closed = open ? LLVMBuildNot(b, open, "") : NULL;
  for (size_t i = 0; open && i < made[1].len; i++)
    if (of_numbers(&made[1].data[i])) zero(b, m, made[1].data[i].shadow, closed);
  LLVMDisposeBuilder(b);
}

void ad_isolate_global_adjoints(LLVMModuleRef m, LLVMValueRef call) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef open = split_open(m, b);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef check = LLVMFunctionType(LLVMVoidTypeInContext(c), (LLVMTypeRef[]){ptr, i64, ptr}, 3, 0);
  for (size_t i = 0; open && i < made[1].len; i++) {
    const Made *s = &made[1].data[i];
    if (!of_numbers(s)) continue;
    LLVMValueRef args[3] = {s->shadow, LLVMConstInt(i64, ir_type_size(m, LLVMGlobalGetValueType(s->shadow)), 0),
                            LLVMBuildGlobalStringPtr(b, LLVMGetValueName(s->global), "global")};
    ir_call_named(b, "__parad_rt_split_check_clear", check, args, 3);
    zero(b, m, s->shadow, NULL);
  }
  /* after the call, what it left zeroed again where a gradient is open, for that gradient's reverse calls
     (a plain call always: an invoke is never a reverse call) */
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(call));
  for (size_t i = 0; open && i < made[1].len; i++)
    if (of_numbers(&made[1].data[i])) zero(b, m, made[1].data[i].shadow, open);
  LLVMDisposeBuilder(b);
}

/* A memset, or a copy from a constant (the optimiser's form of a loop storing a table of constants). */
static bool constant_fill(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  if (!strncmp(name, "llvm.memset.", 12)) return true;
  if (strncmp(name, "llvm.memcpy.", 12) && strncmp(name, "llvm.memmove.", 13)) return false;
  LLVMValueRef from = ir_address_base(LLVMGetArgOperand(call, 1));
  return LLVMIsAGlobalVariable(from) && LLVMIsGlobalConstant(from);
}

/* Through address v of a global, in functions requests reach: whether a value that may have a derivative is
 * stored (or copied: any call taking the address) there (bit 1), and whether it is read back (bit 2). */
static unsigned carried_through(LLVMValueRef v, int depth) {
  unsigned found = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u && depth < 8; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    bool in_reached = !LLVMIsAInstruction(user) || (LLVMGetInstructionParent(user) &&
                      vmap_get(&reached, LLVMGetBasicBlockParent(LLVMGetInstructionParent(user))) == (void *)1);
    if (!in_reached) continue;
    if (LLVMIsALoadInst(user)) found |= 2;
    else if (LLVMIsAStoreInst(user)) found |= LLVMGetOperand(user, 1) == v && ad_stored_value_may_be_active(LLVMGetOperand(user, 0));
    else if (LLVMIsAConstantExpr(user) || LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) ||
             LLVMIsAPHINode(user) || LLVMIsASelectInst(user))
      found |= carried_through(user, depth + 1);
    else if (ir_is_call_site(user)) found |= constant_fill(user) ? 0 : 3;
  }
  return found;
}

/* Whether a shadow made is of a global that carries derivatives from a store to a load (asked once: what
 * the requests reach is settled by the time it is asked). */
static bool carried(Made *m) {
  if (m->carried < 0) m->carried = of_numbers(m) && carried_through(m->global, 0) == 3;
  return m->carried;
}

/* Whether fn, or a function it names (a callee, a region's function), names a shadow made for `use` of a
 * global of floats that carries derivatives from a store to a load, where another derivative zeroing it
 * at its entry would lose them (a global scratch array; not an accumulator updated atomically, a table
 * only read); with `only`, that one, or its global. A call through a pointer may. `seen` keeps each
 * function to one visit. */
static bool names_carried(LLVMValueRef fn, ShadowUse use, const Made *only, ValueMap *seen) {
  if (LLVMIsDeclaration(fn) || vmap_has(seen, fn)) return false;
  vmap_put(seen, fn, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (ir_is_call_site(i) && !ir_called_function(i) && !LLVMIsAInlineAsm(LLVMGetCalledValue(i))) return true;
      for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(i); k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        if (op && LLVMIsAConstantExpr(op)) op = ir_address_base(op);
        if (!op) continue;
        if (LLVMIsAFunction(op) && names_carried(op, use, only, seen)) return true;
        if (only && (op == only->shadow || op == only->global)) return true;
        for (size_t j = 0; !only && LLVMIsAGlobalVariable(op) && j < made[use == SHADOW_ADD].len; j++) {
          Made *m = &made[use == SHADOW_ADD].data[j];
          if (m->shadow == op && carried(m)) return true;
        }
      }
    }
  return false;
}

static bool reaches_carried(LLVMValueRef fn, ShadowUse use, const Made *only) {
  ValueMap seen;
  vmap_init(&seen);
  bool found = names_carried(fn, use, only, &seen);
  vmap_free(&seen);
  return found;
}

void ad_guard_global_shadows(LLVMModuleRef m, LLVMValueRef call, ShadowUse use) {
  LLVMValueRef fn = LLVMIsACallInst(call) ? ir_called_function(call) : NULL;
  bool any = false;
  for (size_t i = 0; i < made[use == SHADOW_ADD].len; i++) any |= of_numbers(&made[use == SHADOW_ADD].data[i]);
  if (!any || !fn || !LLVMGetNextInstruction(call) || !reaches_carried(fn, use, NULL)) return;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef none = LLVMFunctionType(LLVMVoidTypeInContext(c), NULL, 0, 0);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(b, call); /* the zeroing goes between (called later) */
  ir_call_named(b, "__parad_rt_globals_enter", none, NULL, 0);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(call));
  ir_call_named(b, "__parad_rt_globals_leave", none, NULL, 0);
  LLVMDisposeBuilder(b);
}

/* The shadows of globals carrying derivatives from call to call that fn reaches, each passed with its size
 * and name to the runtime's `what` before b's position (after `tape`, where given). */
static void tell_carried(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef tape, const char *what) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef params[4] = {ptr, ptr, i64, ptr};
  unsigned first = tape ? 0 : 1;
  LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(c), params + first, 4 - first, 0);
  for (size_t i = 0; fn && i < made[1].len; i++) {
    Made *s = &made[1].data[i];
    if (!carried(s) || !reaches_carried(fn, SHADOW_ADD, s)) continue;
    LLVMValueRef args[4] = {tape, s->shadow, LLVMConstInt(i64, ir_type_size(m, LLVMGlobalGetValueType(s->shadow)), 0),
                            LLVMBuildGlobalStringPtr(b, LLVMGetValueName(s->global), "global")};
    ir_call_named(b, what, type, args + first, 4 - first);
  }
}

void ad_check_split_order(LLVMModuleRef m, LLVMValueRef call) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMPositionBuilderBefore(b, call);
  tell_carried(m, b, ir_called_function(call), NULL, "__parad_rt_split_check_order");
  LLVMDisposeBuilder(b);
}

void ad_note_split_carried(LLVMModuleRef m, LLVMValueRef tape) {
  for (LLVMUseRef u = LLVMGetFirstUse(tape); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!ir_is_call(user) || strcmp(ir_called_name(user), "__parad_rt_split_augmented")) continue;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(user));
    tell_carried(m, b, derivative_from(tape), tape, "__parad_rt_split_carries");
    LLVMDisposeBuilder(b);
    return;
  }
}

void ad_enter_global_blocks(LLVMModuleRef m, LLVMValueRef before, ShadowUse use) { enter(m, before, use, true); }

void ad_leave_global_blocks(LLVMModuleRef m, LLVMValueRef after, ShadowUse use) {
  LLVMValueRef next = LLVMIsACallInst(after) ? LLVMGetNextInstruction(after) : NULL;
  if (!next) return; /* (an invoke: the runtime keeps what it handed out until the block is freed) */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMPositionBuilderBefore(b, next);
  unsigned long long left = 0; /* the kinds left, a bit each */
  for (size_t i = 0; i < made[use == SHADOW_ADD].len; i++) {
    const Made *s = &made[use == SHADOW_ADD].data[i];
    if (!global_holds_blocks(s->global)) continue;
    global_block_keep(b, s->global, s->shadow, block_kind(use, s->lane));
    left |= 1ull << s->lane;
  }
  for (unsigned lane = 0; lane < 32; lane++)
    if (left >> lane & 1) global_blocks_leave(b, block_kind(use, lane));
  LLVMDisposeBuilder(b);
}
