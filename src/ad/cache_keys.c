/* The keys of routines' memo caches (see cache_keys.h). */
#include "ad/cache_keys.h"

#include <stdlib.h>
#include <string.h>

/* How an access touches the global: a load or store of a float, a copy of bytes into it, or a comparison
 * of its bytes with other memory (memcmp, bcmp). */
typedef enum { ACCESS_LOAD, ACCESS_STORE, ACCESS_COPY_IN, ACCESS_COMPARE } AccessKind;

typedef struct {
  LLVMValueRef inst; /* a load, a store or a call */
  AccessKind kind;
  long long lo, hi;  /* the bytes of the global it may touch */
  bool exact;        /* one place, of the access's own size */
  LLVMValueRef other; /* a copy's source, a comparison's other memory */
} Access;
typedef VEC(Access) Accesses;

/* A call moving or comparing a constant number of bytes of v (memcpy into v, memcmp or bcmp of it):
 * its kind and other memory; false for any other call. */
static bool byte_call(LLVMValueRef call, LLVMValueRef v, AccessKind *kind, LLVMValueRef *other) {
  const char *name = ir_called_name(call);
  if (!name || ir_num_call_args(call) < 3 || !LLVMIsAConstantInt(LLVMGetArgOperand(call, 2))) return false;
  LLVMValueRef a0 = LLVMGetArgOperand(call, 0), a1 = LLVMGetArgOperand(call, 1);
  if (!strncmp(name, "llvm.memcpy.", 12) || !strncmp(name, "llvm.memmove.", 13)) {
    LLVMValueRef is_volatile = LLVMGetArgOperand(call, 3);
    if (a0 != v || a1 == v || !LLVMIsAConstantInt(is_volatile) || LLVMConstIntGetZExtValue(is_volatile)) return false;
    *kind = ACCESS_COPY_IN, *other = a1;
    return true;
  }
  if (strcmp(name, "memcmp") && strcmp(name, "bcmp")) return false;
  *kind = ACCESS_COMPARE, *other = a0 == v ? a1 : a0;
  return true;
}

/* Collects the accesses to g that functions derivatives run make, through addresses derived from v;
 * false where one is not a plain load or store, a copy into it or a comparison, of a place the analysis
 * bounds. */
static bool collect(LLVMModuleRef m, LLVMValueRef g, LLVMValueRef v, bool (*runs)(LLVMValueRef), Accesses *out, int depth) {
  if (depth > 16) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMPtrToInt) continue; /* an overlap check's */
    if (LLVMIsAInstruction(user) && !runs(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)))) continue;
    if (ir_is_address_step(user)) {
      if (LLVMGetOperand(user, 0) != v || !collect(m, g, user, runs, out, depth + 1)) return false;
      continue;
    }
    Access a = {.inst = user};
    long long size;
    if (ir_is_call(user)) {
      if (!byte_call(user, v, &a.kind, &a.other)) return false;
      size = (long long)LLVMConstIntGetZExtValue(LLVMGetArgOperand(user, 2));
    } else {
      bool load = LLVMIsALoadInst(user), store = LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v && LLVMGetOperand(user, 0) != v;
      if ((!load && !store) || LLVMGetVolatile(user)) return false;
      a.kind = load ? ACCESS_LOAD : ACCESS_STORE;
      size = (long long)ir_type_size(m, LLVMTypeOf(load ? user : LLVMGetOperand(user, 0)));
    }
    if (!ir_bytes_in_global(m, g, v, size, &a.lo, &a.hi, &a.exact)) return false;
    vec_push(out, a);
  }
  return true;
}

/* Whether two values are the same number: one value, or loads of one place (-O0). */
static bool same_number(LLVMValueRef a, LLVMValueRef b) {
  if (a == b) return true;
  return LLVMIsALoadInst(a) && LLVMIsALoadInst(b) && !LLVMGetVolatile(a) && !LLVMGetVolatile(b) &&
         ir_strip_pointer_casts(LLVMGetOperand(a, 0)) == ir_strip_pointer_casts(LLVMGetOperand(b, 0));
}

/* An address as a base and a constant offset from it. */
typedef struct {
  LLVMValueRef base;
  long long offset;
} Place;
typedef VEC(Place) Places;

static Place place_of(LLVMModuleRef m, LLVMValueRef p, long long extra) {
  Place at = {NULL, extra};
  at.base = ir_strip_constant_offsets(m, p, &at.offset);
  return at;
}

static bool has_place(const Places *v, Place at) {
  for (size_t i = 0; i < v->len; i++)
    if (v->data[i].base == at.base && v->data[i].offset == at.offset) return true;
  return false;
}

/* Where a getelementptr's only variable index, its last, starts (the place of element 0) and its step;
 * false for other shapes. */
static bool last_index_start(LLVMModuleRef m, LLVMValueRef gep, LLVMValueRef *index, Place *start, long long *step) {
  unsigned n = (unsigned)LLVMGetNumOperands(gep);
  if (!LLVMIsAGetElementPtrInst(gep) || n < 2) return false;
  for (unsigned k = 1; k + 1 < n; k++)
    if (!LLVMIsAConstantInt(LLVMGetOperand(gep, k)) || LLVMConstIntGetZExtValue(LLVMGetOperand(gep, k))) return false;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
  for (unsigned k = 2; k < n; k++) { /* arrays only (a struct's field 0 is refused) */
    if (LLVMGetTypeKind(t) != LLVMArrayTypeKind) return false;
    t = LLVMGetElementType(t);
  }
  *index = LLVMGetOperand(gep, n - 1);
  *start = place_of(m, LLVMGetOperand(gep, 0), 0);
  *step = (long long)ir_type_size(m, t);
  return !LLVMIsAConstantInt(*index) && *step > 0;
}

/* For a store at a variable index of g whose value is a load at the same index of other memory (a key
 * copied in element by element, `for (i...) key[i] = q[i]`), the place the float at byte lo of g comes
 * from; false for other stores. a_lo: where the store's range of g starts, its element 0. */
static bool copied_element(LLVMModuleRef m, LLVMValueRef store, long long a_lo, long long lo, Place *from) {
  LLVMValueRef v = LLVMGetOperand(store, 0), si, li;
  Place s0, l0;
  long long sstep, lstep;
  if (!LLVMIsALoadInst(v) || !last_index_start(m, LLVMGetOperand(store, 1), &si, &s0, &sstep) ||
      !last_index_start(m, LLVMGetOperand(v, 0), &li, &l0, &lstep) || si != li || sstep != lstep || (lo - a_lo) % sstep)
    return false;
  *from = (Place){l0.base, l0.offset + (lo - a_lo)};
  return true;
}

/* Whether a comparison's result is only tested for zero (equal or not). */
static bool tested_for_equality(LLVMValueRef cmp) {
  for (LLVMUseRef u = LLVMGetFirstUse(cmp); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    LLVMValueRef zero = LLVMIsAICmpInst(user) ? LLVMGetOperand(user, LLVMGetOperand(user, 0) == cmp ? 1 : 0) : NULL;
    LLVMIntPredicate p = zero ? LLVMGetICmpPredicate(user) : LLVMIntEQ;
    if (!zero || !LLVMIsAConstantInt(zero) || LLVMConstIntGetZExtValue(zero) || (p != LLVMIntEQ && p != LLVMIntNE)) return false;
  }
  return true;
}

/* Whether the float of type t at bytes [lo, hi) of g is a cache's key among g's accesses: every access
 * that touches its bytes is a load of it only compared for equality, a store of a number compared or of a
 * constant, a comparison of whole bytes (memcmp) only tested for equality, or a copy into it from where a
 * number compared lies (the key of an array copied in: `memcpy(key, q, sizeof key)`, or element by
 * element). */
static bool is_key(LLVMModuleRef m, const Accesses *all, long long lo, long long hi, LLVMTypeRef t) {
  ValueList compared = {0}, stored = {0};
  Places compared_at = {0}, copied_from = {0};
  bool ok = true;
  for (size_t i = 0; i < all->len && ok; i++) {
    const Access *a = &all->data[i];
    if (a->hi <= lo || a->lo >= hi) continue;
    switch (a->kind) {
    case ACCESS_LOAD:
    case ACCESS_STORE: {
      bool load = a->kind == ACCESS_LOAD;
      Place from;
      if (!load && !a->exact && LLVMTypeOf(LLVMGetOperand(a->inst, 0)) == t && copied_element(m, a->inst, a->lo, lo, &from)) {
        vec_push(&copied_from, from);
        break;
      }
      ok = a->exact && a->lo == lo && LLVMTypeOf(load ? a->inst : LLVMGetOperand(a->inst, 0)) == t;
      if (ok && !load) vec_push(&stored, LLVMGetOperand(a->inst, 0));
      for (LLVMUseRef v = ok && load ? LLVMGetFirstUse(a->inst) : NULL; v && ok; v = LLVMGetNextUse(v)) {
        LLVMValueRef cmp = LLVMGetUser(v);
        LLVMRealPredicate p = LLVMIsAFCmpInst(cmp) ? LLVMGetFCmpPredicate(cmp) : LLVMRealPredicateFalse;
        ok = p == LLVMRealOEQ || p == LLVMRealUNE || p == LLVMRealONE || p == LLVMRealUEQ;
        LLVMValueRef with = ok ? LLVMGetOperand(cmp, LLVMGetOperand(cmp, 0) == a->inst ? 1 : 0) : NULL;
        if (with) vec_push(&compared, with);
        if (with && LLVMIsALoadInst(with)) vec_push(&compared_at, place_of(m, LLVMGetOperand(with, 0), 0));
      }
      break;
    }
    case ACCESS_COMPARE: /* the whole key's bytes, each against the same place of the other memory */
      ok = a->exact && a->lo <= lo && hi <= a->hi && tested_for_equality(a->inst);
      if (ok) vec_push(&compared_at, place_of(m, a->other, lo - a->lo));
      break;
    case ACCESS_COPY_IN:
      ok = a->exact && a->lo <= lo && hi <= a->hi;
      if (ok) vec_push(&copied_from, place_of(m, a->other, lo - a->lo));
      break;
    }
  }
  ok = ok && compared.len + compared_at.len && stored.len + copied_from.len;
  for (size_t i = 0; i < stored.len && ok; i++) {
    bool seen = LLVMIsAConstant(stored.data[i]); /* an initial value set again (a reset) */
    for (size_t j = 0; j < compared.len && !seen; j++) seen = same_number(stored.data[i], compared.data[j]);
    if (!seen && LLVMIsALoadInst(stored.data[i])) seen = has_place(&compared_at, place_of(m, LLVMGetOperand(stored.data[i], 0), 0));
    ok = seen;
  }
  for (size_t i = 0; i < copied_from.len && ok; i++) ok = has_place(&compared_at, copied_from.data[i]);
  vec_free(&compared);
  vec_free(&stored);
  vec_free(&compared_at);
  vec_free(&copied_from);
  return ok;
}

/* The float type of g's element at byte `at`, where g is a float or an array of them (of arrays). */
static LLVMTypeRef float_element(LLVMModuleRef m, LLVMValueRef g, long long at, long long *size) {
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  while (LLVMGetTypeKind(t) == LLVMArrayTypeKind) t = LLVMGetElementType(t);
  *size = ir_is_fp(t) ? (long long)ir_type_size(m, t) : 0;
  return *size && at % *size == 0 ? t : NULL;
}

/* Float t at byte `lo` of g, taken as a key where it is one and not taken already (`found`: the places
 * taken): its address into `keys`, its NaN into `nans`. */
typedef VEC(long long) Offsets;

static void take_key(LLVMModuleRef m, LLVMValueRef g, const Accesses *all, Offsets *found, long long lo, LLVMTypeRef t,
                     ValueList *keys, ValueList *nans) {
  for (size_t j = 0; j < found->len; j++)
    if (found->data[j] == lo) return;
  if (!is_key(m, all, lo, lo + (long long)ir_type_size(m, t), t)) return;
  vec_push(found, lo);
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(c), (unsigned long long)lo, 1);
  vec_push(keys, lo ? LLVMConstInBoundsGEP2(LLVMInt8TypeInContext(c), g, &off, 1) : g);
  vec_push(nans, LLVMConstRealOfString(t, "nan"));
}

void cache_keys_find(LLVMModuleRef m, bool (*runs)(LLVMValueRef fn), ValueList *at, ValueList *nans) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMIsGlobalConstant(g) || !ir_contains_fp(LLVMGlobalGetValueType(g))) continue;
    Accesses all = {0};
    Offsets found = {0};
    if (collect(m, g, g, runs, &all, 0))
      for (size_t i = 0; i < all.len; i++) {
        Access *a = &all.data[i];
        if (a->kind == ACCESS_LOAD && a->exact && ir_is_fp(LLVMTypeOf(a->inst))) { /* a float's place */
          take_key(m, g, &all, &found, a->lo, LLVMTypeOf(a->inst), at, nans);
        } else if (a->kind == ACCESS_COMPARE) { /* each float of an array compared as bytes */
          long long size;
          for (long long p = a->lo; p < a->hi; p += size) {
            LLVMTypeRef t = float_element(m, g, p, &size);
            if (!t) break;
            take_key(m, g, &all, &found, p, t, at, nans);
          }
        }
      }
    vec_free(&found);
    vec_free(&all);
  }
}
