/* The keys of routines' memo caches (see cache_keys.h). */
#include "ad/cache_keys.h"

#include <stdlib.h>

typedef struct {
  LLVMValueRef inst; /* a load or a store */
  long long lo, hi;  /* the bytes of the global it may touch */
  bool exact;        /* one place, of the access's own size */
} Access;
typedef VEC(Access) Accesses;

/* Collects the accesses to g that functions derivatives run make, through addresses derived from v;
 * false where one is not a plain load or store of a place the analysis bounds. */
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
    bool load = LLVMIsALoadInst(user), store = LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v && LLVMGetOperand(user, 0) != v;
    if ((!load && !store) || LLVMGetVolatile(user)) return false;
    LLVMTypeRef t = LLVMTypeOf(load ? user : LLVMGetOperand(user, 0));
    Access a = {.inst = user};
    if (!ir_bytes_in_global(m, g, v, (long long)ir_type_size(m, t), &a.lo, &a.hi, &a.exact)) return false;
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

/* Whether the float loaded by key (an exact load) is a cache's key among g's accesses: every access that
 * touches its bytes is one of its size at its place, loads only compared for equality, stores of a number
 * compared or of a constant. */
static bool is_key(const Accesses *all, const Access *key) {
  LLVMTypeRef t = LLVMTypeOf(key->inst);
  if (!ir_is_fp(t)) return false;
  ValueList compared = {0}, stored = {0};
  bool ok = true;
  for (size_t i = 0; i < all->len && ok; i++) {
    const Access *a = &all->data[i];
    if (a->hi <= key->lo || a->lo >= key->hi) continue;
    bool load = LLVMIsALoadInst(a->inst);
    ok = a->exact && a->lo == key->lo && LLVMTypeOf(load ? a->inst : LLVMGetOperand(a->inst, 0)) == t;
    if (ok && !load) vec_push(&stored, LLVMGetOperand(a->inst, 0));
    for (LLVMUseRef v = ok && load ? LLVMGetFirstUse(a->inst) : NULL; v && ok; v = LLVMGetNextUse(v)) {
      LLVMValueRef cmp = LLVMGetUser(v);
      LLVMRealPredicate p = LLVMIsAFCmpInst(cmp) ? LLVMGetFCmpPredicate(cmp) : LLVMRealPredicateFalse;
      ok = p == LLVMRealOEQ || p == LLVMRealUNE || p == LLVMRealONE || p == LLVMRealUEQ;
      if (ok) vec_push(&compared, LLVMGetOperand(cmp, LLVMGetOperand(cmp, 0) == a->inst ? 1 : 0));
    }
  }
  ok = ok && compared.len && stored.len;
  for (size_t i = 0; i < stored.len && ok; i++) {
    bool seen = LLVMIsAConstant(stored.data[i]); /* an initial value set again (a reset) */
    for (size_t j = 0; j < compared.len && !seen; j++) seen = same_number(stored.data[i], compared.data[j]);
    ok = seen;
  }
  vec_free(&compared);
  vec_free(&stored);
  return ok;
}

void cache_keys_find(LLVMModuleRef m, bool (*runs)(LLVMValueRef fn), ValueList *at, ValueList *nans) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(LLVMGetModuleContext(m)), i64 = LLVMInt64TypeInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMIsGlobalConstant(g) || !ir_contains_fp(LLVMGlobalGetValueType(g))) continue;
    Accesses all = {0};
    if (collect(m, g, g, runs, &all, 0))
      for (size_t i = 0; i < all.len; i++) {
        Access *a = &all.data[i];
        bool first = LLVMIsALoadInst(a->inst) && a->exact; /* each place once: at its first exact load */
        for (size_t j = 0; j < i && first; j++)
          first = !(LLVMIsALoadInst(all.data[j].inst) && all.data[j].exact && all.data[j].lo == a->lo);
        if (!first || !is_key(&all, a)) continue;
        LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)a->lo, 1);
        vec_push(at, a->lo ? LLVMConstInBoundsGEP2(i8, g, &off, 1) : g);
        vec_push(nans, LLVMConstRealOfString(LLVMTypeOf(a->inst), "nan"));
      }
    vec_free(&all);
  }
}
