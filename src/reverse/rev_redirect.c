/* Shared memory a parallel region's function passes on to a call: the callee notes what it reads, and
 * adds the adjoints where the region's plan says (rev_shared.c).
 *
 * A region's plan for its shared objects (who owns which addresses, a private buffer for the rest) needs
 * every read of an object noted in the forward sweep. A call that takes a pointer into one (a per-sample
 * model evaluated in a parallel loop, reading the shared parameters) reads out of the region's sight, and
 * its derivative could only add atomically, everywhere. Where the callee only reads floats of one type
 * through the parameter, by address arithmetic alone, its pair is made for that (PairKind.redirected): the
 * forward sweep keeps the hull of the addresses it read, which the region adds to the object's range; the
 * reverse sweep adds each adjoint plainly where the address is the thread's own, into the thread's
 * private buffer where that covers it, else atomically, as the region's own reads do. The two talk through
 * a slot per redirected parameter in thread-local memory (runtime/omp.c): the callee widens its range
 * there; the region's reverse sweep writes its plan there before it calls the callee's. */
#include <stdlib.h>

#include "ad/body.h"
#include "ad/custom.h"
#include "ad/indirect.h"
#include "reverse/rev_internal.h"

/* A block's reads through one parameter at constant distances from one address: noted at once, at the
 * block's end (an unrolled loop's eight reads of a row, one hull). */
struct ReadGroup {
  LLVMBasicBlockRef block;
  LLVMValueRef anchor;
  unsigned slot;
  long long lo, hi; /* the bytes [lo, hi) from anchor they cover */
};

/* A read in a loop whose trip count is known on entry, at an address linear in its counters: noted once
 * per run, at the loop's preheader, from the run's first and last iterations; in a short loop of constant
 * trips (a row of eight weights), per run of the loop around, from the corners (rev_monotone.c). */
struct RunRead {
  Loop *l;
  LLVMValueRef load;
  unsigned slot;
  bool monotone;
};

/* A call the pair makes that passes the address on (a helper handing the shared array to a further
 * helper): argument `arg` is read through slot `slot`; the callee's pair is redirected for it in turn. */
typedef struct {
  LLVMValueRef call;
  unsigned arg, slot;
} NestedRead;
typedef VEC(NestedRead) NestedReads;

struct Redirects {
  ValueMap slot_of;                            /* a read through a redirected parameter -> 1 + its slot */
  NestedReads nested;
  VEC(struct ReadGroup) groups;
  VEC(struct RunRead) runs;
  unsigned nslots;
  LLVMValueRef range[MAX_REDIRECTS][2];        /* aug: the hull of the addresses read so far */
  LLVMValueRef plan[MAX_REDIRECTS][REDIRECT_FIELDS]; /* rev: the region's plan, read at the entry */
};

enum { MAX_NESTING = 3 };

static bool walk_reads(AdModule *ad, LLVMValueRef v, unsigned *elem, ValueMap *reads, NestedReads *nested, unsigned slot, int depth);

static bool takes_param(LLVMValueRef fn, unsigned i) {
  return !LLVMIsDeclaration(fn) && !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)) && i < LLVMCountParams(fn);
}

/* Whether a call that is given address v passes it only to parameters read as walk_reads says, of floats
 * of *type (set where still NULL): of the function called, or of every function of the module a pointer
 * may hold, none with a registered gradient. */
static bool passed_on(AdModule *ad, LLVMValueRef call, LLVMValueRef v, LLVMTypeRef *type, int depth) {
  CallKind kind = call_classify(call, NULL);
  if (depth >= MAX_NESTING || (kind != CALL_MODULE && kind != CALL_INDIRECT)) return false;
  ValueList callees = {0};
  indirect_callees(ad, call, &callees);
  bool ok = callees.len > 0;
  for (unsigned a = 0, n = ir_num_call_args(call); a < n && ok; a++) {
    if (LLVMGetArgOperand(call, a) != v) continue;
    for (size_t f = 0; f < callees.len && ok; f++) {
      LLVMValueRef fn = callees.data[f];
      unsigned elem = 0;
      ok = fn && takes_param(fn, a) && !custom_registered(fn) &&
           walk_reads(ad, LLVMGetParam(ad_body(ad, fn), a), &elem, NULL, NULL, 0, depth + 1);
      LLVMTypeRef t = elem == 8 ? LLVMDoubleTypeInContext(ad->ctx) : LLVMFloatTypeInContext(ad->ctx);
      ok = ok && (!*type || *type == t);
      if (ok) *type = t;
    }
  }
  vec_free(&callees);
  return ok;
}

/* Walks the values computed from a parameter by address arithmetic (phis and selects met again are
 * being walked): false at any other use than a read of floats of one type (*type), a comparison, or a
 * call passing the address on (passed_on), which `nested` gets. */
static bool reads_only(AdModule *ad, LLVMValueRef v, ValueList *seen, LLVMTypeRef *type, ValueMap *reads, NestedReads *nested,
                       unsigned slot, int depth) {
  for (size_t i = 0; i < seen->len; i++)
    if (seen->data[i] == v) return true;
  vec_push(seen, v);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) {
      LLVMTypeRef t = LLVMTypeOf(user);
      if (!ir_is_fp(t) || (*type && *type != t) || LLVMGetVolatile(user) || LLVMGetOrdering(user) != LLVMAtomicOrderingNotAtomic)
        return false;
      *type = t;
      if (reads) vmap_put(reads, user, (void *)(size_t)(slot + 1));
      continue;
    }
    if (ir_is_call(user) && LLVMGetCalledValue(user) != v) {
      if (!passed_on(ad, user, v, type, depth)) return false;
      for (unsigned a = 0, n = ir_num_call_args(user); nested && a < n; a++)
        if (LLVMGetArgOperand(user, a) == v) vec_push(nested, ((NestedRead){user, a, slot}));
      continue;
    }
    bool arithmetic = (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == v) || LLVMIsABitCastInst(user) ||
                      LLVMIsAAddrSpaceCastInst(user) || LLVMIsAPHINode(user) ||
                      (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) != v);
    if (LLVMIsAICmpInst(user)) continue; /* a pointer compared: a loop's end */
    if (!arithmetic || !reads_only(ad, user, seen, type, reads, nested, slot, depth)) return false;
  }
  return true;
}

/* Whether every address a phi or select of the walk chooses among comes from the parameter itself. */
static bool merges_own(ValueList *seen) {
  for (size_t i = 0; i < seen->len; i++) {
    LLVMValueRef v = seen->data[i];
    unsigned first = LLVMIsASelectInst(v) ? 1 : 0, n = LLVMIsAPHINode(v) ? LLVMCountIncoming(v) : LLVMIsASelectInst(v) ? 3 : 0;
    for (unsigned j = first; j < n; j++) {
      LLVMValueRef in = LLVMIsAPHINode(v) ? LLVMGetIncomingValue(v, j) : LLVMGetOperand(v, j);
      bool known = false;
      for (size_t k = 0; k < seen->len && !known; k++) known = seen->data[k] == in;
      if (!known) return false;
    }
  }
  return true;
}

/* Walks v's address arithmetic: every use a read of floats of one type (*elem their size) or a call passing
 * it on, every merge among its own addresses. */
static bool walk_reads(AdModule *ad, LLVMValueRef v, unsigned *elem, ValueMap *reads, NestedReads *nested, unsigned slot, int depth) {
  ValueList seen = {0};
  LLVMTypeRef type = NULL;
  bool ok = reads_only(ad, v, &seen, &type, reads, nested, slot, depth) && merges_own(&seen);
  vec_free(&seen);
  if (!ok || !type) return false;
  *elem = LLVMGetTypeKind(type) == LLVMDoubleTypeKind ? 8 : LLVMGetTypeKind(type) == LLVMFloatTypeKind ? 4 : 0;
  return *elem != 0;
}

/* A function pointer read from the record (`L->f(a)`): only called. */
static bool only_called(LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
    if (!ir_is_call(LLVMGetUser(u)) || LLVMGetCalledValue(LLVMGetUser(u)) != v) return false;
  return LLVMGetFirstUse(v) != NULL;
}

/* The loads of pointers and integers from a record at constant offsets from v: false at any other use. */
static bool record_loads(LLVMValueRef v, ValueList *pointers) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) {
      LLVMTypeRef t = LLVMTypeOf(user);
      if (LLVMGetVolatile(user) || LLVMGetOrdering(user) != LLVMAtomicOrderingNotAtomic || !(ir_is_ptr(t) || ir_is_int(t))) return false;
      if (ir_is_ptr(t) && !only_called(user)) vec_push(pointers, user);
    } else if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == v) {
      for (unsigned k = 1, n = (unsigned)LLVMGetNumOperands(user); k < n; k++)
        if (!LLVMIsAConstantInt(LLVMGetOperand(user, k))) return false;
      if (!record_loads(user, pointers)) return false;
    } else if (!LLVMIsAICmpInst(user)) {
      return false;
    }
  }
  return true;
}

static int by_offset(const void *a, const void *b) {
  long long x = ((const RedirectSlot *)a)->field, y = ((const RedirectSlot *)b)->field;
  return (x > y) - (x < y);
}

/* A record parameter (`const Layer *L`): only pointers (its fields) and integers read from it, each field
 * only read as floats. Its fields in increasing offset into out (at most max); reads mapped to the slots
 * from `first` on where reads is given. */
static bool walk_record(AdModule *ad, LLVMValueRef fn, unsigned i, RedirectSlot *out, unsigned max, unsigned *n, ValueMap *reads,
                        NestedReads *nested, unsigned first) {
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMValueRef param = LLVMGetParam(fn, i);
  ValueList pointers = {0};
  bool ok = record_loads(param, &pointers);
  *n = 0;
  for (size_t k = 0; k < pointers.len && ok; k++) { /* the fields */
    long long off = 0;
    ok = ir_strip_constant_offsets(m, LLVMGetOperand(pointers.data[k], 0), &off) == param;
    bool known = false;
    for (unsigned q = 0; q < *n && !known; q++) known = out[q].field == off;
    if (ok && !known) {
      ok = *n < max;
      if (ok) out[(*n)++] = (RedirectSlot){.field = off};
    }
  }
  if (ok) qsort(out, *n, sizeof *out, by_offset);
  for (size_t k = 0; k < pointers.len && ok; k++) { /* each field's reads, of one float type */
    long long off = 0;
    ir_strip_constant_offsets(m, LLVMGetOperand(pointers.data[k], 0), &off);
    unsigned q = 0, elem;
    while (out[q].field != off) q++;
    ok = walk_reads(ad, pointers.data[k], &elem, reads, nested, first + q, 0) && (!out[q].elem || out[q].elem == elem);
    out[q].elem = (unsigned char)elem;
  }
  vec_free(&pointers);
  return ok && *n > 0;
}

bool redirect_param_slots(AdModule *ad, LLVMValueRef fn, unsigned i, RedirectSlot *out, unsigned max, unsigned *n) {
  unsigned elem;
  if (!takes_param(fn, i) || !max) return false;
  if (walk_reads(ad, LLVMGetParam(fn, i), &elem, NULL, NULL, 0, 0)) {
    out[0] = (RedirectSlot){.field = -1, .elem = (unsigned char)elem};
    *n = 1;
    return true;
  }
  return walk_record(ad, fn, i, out, max, n, NULL, NULL, 0);
}

/* The runtime's slots: MAX_REDIRECTS records of REDIRECT_FIELDS words, one per thread. */
LLVMValueRef redirect_field(RevGen *g, unsigned slot, unsigned field) {
  LLVMModuleRef m = g->ad->mod;
  LLVMTypeRef t = LLVMArrayType2(g->i64, MAX_REDIRECTS * REDIRECT_FIELDS);
  LLVMValueRef slots = LLVMGetNamedGlobal(m, "__parad_rt_redirect");
  if (!slots) {
    slots = LLVMAddGlobal(m, t, "__parad_rt_redirect");
    LLVMSetThreadLocal(slots, 1);
  }
  LLVMValueRef idx[2] = {LLVMConstInt(g->i64, 0, 0), LLVMConstInt(g->i64, slot * REDIRECT_FIELDS + field, 0)};
  return LLVMBuildGEP2(g->b, t, slots, idx, 2, "");
}

void redirect_clear(RevGen *g, unsigned slot) {
  LLVMBuildStore(g->b, LLVMConstInt(g->i64, ~0ull, 0), redirect_field(g, slot, REDIRECT_LO));
  LLVMBuildStore(g->b, LLVMConstInt(g->i64, 0, 0), redirect_field(g, slot, REDIRECT_HI));
}

static unsigned slot_count(RevGen *g) { return g->redirects ? g->redirects->nslots : 0; }

void redirect_analyse(RevGen *g) {
  if (!g->redirected) return;
  struct Redirects *r = g->redirects = xcalloc(1, sizeof *r);
  vmap_init(&r->slot_of);
  unsigned slot = 0;
  for (unsigned i = 0; i < 64; i++) {
    RedirectSlot slots[MAX_REDIRECTS];
    unsigned n, elem;
    if (!(g->redirected >> i & 1)) continue;
    /* the caller asked for what it checked */
    bool ok = redirect_param_slots(g->ad, g->orig, i, slots, MAX_REDIRECTS - slot, &n) &&
              (slots[0].field < 0 ? walk_reads(g->ad, LLVMGetParam(g->orig, i), &elem, &r->slot_of, &r->nested, slot, 0)
                                  : walk_record(g->ad, g->orig, i, slots, MAX_REDIRECTS - slot, &n, &r->slot_of, &r->nested, slot));
    if (!ok) {
      rev_error(g, NULL, "internal: parameter %u of '%s' is not only read", i + 1, LLVMGetValueName(g->orig));
      return;
    }
    slot += n;
  }
  r->nslots = slot;
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      size_t j1 = (size_t)vmap_get(&r->slot_of, i);
      if (!j1) continue;
      Loop *l = loop_innermost(g, g->cfg.blocks.data[b]), *run = NULL;
      LLVMValueRef p = LLVMGetOperand(i, 0);
      bool linear = l && l->exit_iv && l->preheader && loop_linear_exact(g, l, p);
      if (l && (!linear || loop_short_constant(g, l))) run = loop_monotone_run(g, l, p, g->cfg.blocks.data[b]);
      if (run && run->preheader) {
        vec_push(&r->runs, ((struct RunRead){run, i, (unsigned)(j1 - 1), true}));
        continue;
      }
      if (linear) {
        vec_push(&r->runs, ((struct RunRead){l, i, (unsigned)(j1 - 1), false}));
        continue;
      }
      long long off = 0;
      LLVMValueRef anchor = ir_strip_constant_offsets(g->ad->mod, LLVMGetOperand(i, 0), &off);
      long long end = off + (long long)ir_type_size(g->ad->mod, LLVMTypeOf(i));
      struct ReadGroup *gr = NULL;
      for (size_t k = r->groups.len; k-- > 0 && r->groups.data[k].block == g->cfg.blocks.data[b] && !gr;)
        if (r->groups.data[k].anchor == anchor && r->groups.data[k].slot == j1 - 1) gr = &r->groups.data[k];
      if (!gr) {
        vec_push(&r->groups, ((struct ReadGroup){g->cfg.blocks.data[b], anchor, (unsigned)(j1 - 1), off, end}));
        continue;
      }
      if (off < gr->lo) gr->lo = off;
      if (end > gr->hi) gr->hi = end;
    }
}

void redirect_free(RevGen *g) {
  if (!g->redirects) return;
  vmap_free(&g->redirects->slot_of);
  vec_free(&g->redirects->nested);
  vec_free(&g->redirects->groups);
  vec_free(&g->redirects->runs);
  free(g->redirects);
  g->redirects = NULL;
}

void redirect_aug_entry(RevGen *g) {
  for (unsigned j = 0; g->redirects && j < slot_count(g); j++)
    for (unsigned e = 0; e < 2; e++) {
      LLVMValueRef slot = g->redirects->range[j][e] = LLVMBuildAlloca(g->b, g->i64, "redirect.range");
      LLVMBuildStore(g->b, LLVMConstInt(g->i64, e ? 0 : ~0ull, 0), slot);
    }
}

static void widen(RevGen *g, unsigned slot, LLVMValueRef lo, LLVMValueRef hi) {
  rev_widen(g, g->redirects->range[slot][0], lo, "llvm.umin");
  rev_widen(g, g->redirects->range[slot][1], hi, "llvm.umax");
}

void redirect_aug_after_block(RevGen *g, LLVMBasicBlockRef bb) {
  struct Redirects *r = g->redirects;
  for (size_t k = 0; r && k < r->groups.len; k++) {
    struct ReadGroup *gr = &r->groups.data[k];
    if (gr->block != bb) continue;
    LLVMValueRef at = LLVMBuildPtrToInt(g->b, aug_value(g, gr->anchor), g->i64, "");
    widen(g, gr->slot, LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, (unsigned long long)gr->lo, 1), ""),
          LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, (unsigned long long)gr->hi, 1), ""));
  }
  for (size_t i = 0; r && i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    LLVMValueRef *first = NULL, *last = NULL;
    for (size_t k = 0; l->preheader == bb && k < r->runs.len; k++) {
      struct RunRead *run = &r->runs.data[k];
      if (run->l != l) continue;
      if (!first) {
        first = xcalloc(l->ivs.len, sizeof *first), last = xcalloc(l->ivs.len, sizeof *last);
        loop_first_and_last(g, l, loop_trip(g, l, aug_value), first, last, aug_value);
      }
      LLVMValueRef p = LLVMGetOperand(run->load, 0), lo, hi;
      unsigned size = (unsigned)ir_type_size(g->ad->mod, LLVMTypeOf(run->load));
      if (run->monotone)
        loop_monotone_span(g, l, p, size, first, last, aug_value, &lo, &hi);
      else
        address_span(g, loop_evaluate(g, l, p, first, aug_value), loop_evaluate(g, l, p, last, aug_value), size, &lo, &hi);
      widen(g, run->slot, lo, hi);
    }
    free(first);
    free(last);
  }
}

/* Before returning: the hull read into the thread's slot (stored, not widened: the calls the pair passes
 * addresses on to used the slots for their own). */
void redirect_aug_exit(RevGen *g) {
  for (unsigned j = 0; g->redirects && j < slot_count(g); j++) {
    LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i64, g->redirects->range[j][0], ""), redirect_field(g, j, REDIRECT_LO));
    LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i64, g->redirects->range[j][1], ""), redirect_field(g, j, REDIRECT_HI));
  }
}

/* The calls that pass an address on: which of their arguments (PairKind.redirected), and the callee's slot of
 * argument a (its redirected parameters in order). */
unsigned long long redirect_nested_params(RevGen *g, LLVMValueRef call) {
  unsigned long long mask = 0;
  for (size_t k = 0; g->redirects && k < g->redirects->nested.len; k++)
    if (g->redirects->nested.data[k].call == call) mask |= 1ull << g->redirects->nested.data[k].arg;
  return mask;
}

static unsigned nested_slot(unsigned long long mask, unsigned a) { return (unsigned)__builtin_popcountll(mask & ((1ull << a) - 1)); }

void redirect_aug_call(RevGen *g, LLVMValueRef call, bool after) {
  unsigned long long mask = redirect_nested_params(g, call);
  for (size_t k = 0; mask && k < g->redirects->nested.len; k++) {
    NestedRead *n = &g->redirects->nested.data[k];
    if (n->call != call) continue;
    unsigned j = nested_slot(mask, n->arg);
    if (!after) {
      redirect_clear(g, j);
      continue;
    }
    widen(g, n->slot, LLVMBuildLoad2(g->b, g->i64, redirect_field(g, j, REDIRECT_LO), ""),
          LLVMBuildLoad2(g->b, g->i64, redirect_field(g, j, REDIRECT_HI), ""));
  }
}

void redirect_rev_call(RevGen *g, LLVMValueRef call) {
  unsigned long long mask = g->phase == PLANNING ? 0 : redirect_nested_params(g, call);
  for (size_t k = 0; mask && k < g->redirects->nested.len; k++) {
    NestedRead *n = &g->redirects->nested.data[k];
    if (n->call != call) continue;
    for (unsigned f = REDIRECT_WHOLE; f < REDIRECT_FIELDS; f++)
      LLVMBuildStore(g->b, g->redirects->plan[n->slot][f], redirect_field(g, nested_slot(mask, n->arg), f));
  }
}

void redirect_rev_entry(RevGen *g) {
  for (unsigned j = 0; g->redirects && j < slot_count(g); j++)
    for (unsigned f = REDIRECT_WHOLE; f < REDIRECT_FIELDS; f++)
      g->redirects->plan[j][f] = LLVMBuildLoad2(g->b, g->i64, redirect_field(g, j, f), "redirect.plan");
  if (g->redirects) g->ad->run_long_conditions = true; /* loops get a copy for the thread that owns all it read */
}

/* PARAD_CHECK_CLEAN (tests): an add the plan takes as the thread's own because its own part is all it read
 * (the callee's reads among them) stops the program where the address lies outside that part: a read the
 * callee did not note (runtime/omp.c __parad_rt_clean_violation). */
static void check_whole(RevGen *g, LLVMValueRef whole, LLVMValueRef mine, LLVMValueRef own_lo, LLVMValueRef at) {
  LLVMValueRef known = LLVMBuildICmp(g->b, LLVMIntNE, own_lo, LLVMConstAllOnes(g->i64), "");
  LLVMValueRef wrong = LLVMBuildAnd(g->b, LLVMBuildAnd(g->b, whole, known, ""), LLVMBuildNot(g->b, mine, ""), "");
  LLVMBasicBlockRef yes, no, join;
  rev_diamond(g, wrong, &yes, &no, &join);
  LLVMPositionBuilderAtEnd(g->b, yes);
  LLVMTypeRef params[1] = {g->i64};
  ir_call_named(g->b, "__parad_rt_clean_violation", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 1, 0), &at, 1);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, no);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
}

bool redirect_accumulate(RevGen *g, LLVMValueRef load, LLVMValueRef shadow, LLVMValueRef d, unsigned align,
                         void (*plain)(RevGen *, LLVMValueRef, LLVMValueRef, unsigned),
                         void (*atomic)(RevGen *, LLVMValueRef, LLVMValueRef, LLVMValueRef, unsigned, LLVMValueRef)) {
  size_t j1 = g->redirects ? (size_t)vmap_get(&g->redirects->slot_of, load) : 0;
  if (!j1) return false;
  if (g->phase == PLANNING) {
    plain(g, shadow, d, align);
    return true;
  }
  LLVMValueRef *plan = g->redirects->plan[j1 - 1];
  unsigned size = (unsigned)ir_type_size(g->ad->mod, LLVMTypeOf(load));
  LLVMValueRef at = LLVMBuildPtrToInt(g->b, shadow, g->i64, ""), least = LLVMConstInt(g->i64, size - 1, 0);
  /* the thread's own: all it read (a team of one; tested first, so that a loop's copy for it tests
     nothing else), or at - own_lo < own_span - size + 1, saturated, as in the region */
  LLVMValueRef own_args[2] = {plan[REDIRECT_OWN_SPAN], least};
  LLVMValueRef own = LLVMBuildICmp(g->b, LLVMIntULT, LLVMBuildSub(g->b, at, plan[REDIRECT_OWN_LO], ""),
                                   ir_call_intrinsic(g->b, "llvm.usub.sat", &g->i64, 1, own_args, 2), "mine");
  LLVMValueRef whole = LLVMBuildICmp(g->b, LLVMIntNE, plan[REDIRECT_WHOLE], LLVMConstInt(g->i64, 0, 0), "whole");
  if (g->ad->check_clean) check_whole(g, whole, own, plan[REDIRECT_OWN_LO], at);
  own = LLVMBuildSelect(g->b, whole, LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 1, 0), own, "");
  LLVMBasicBlockRef here, elsewhere, join;
  rev_diamond(g, own, &here, &elsewhere, &join);
  ir_branch_weights(LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->b)), 2000, 1);
  LLVMPositionBuilderAtEnd(g->b, here);
  plain(g, shadow, d, align);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, elsewhere);
  /* in the private buffer where it covers the address (its length 0 where the object has none) */
  LLVMValueRef off = LLVMBuildSub(g->b, at, plan[REDIRECT_BUFFER_LO], "");
  LLVMValueRef buf_args[2] = {plan[REDIRECT_BUFFER_LEN], least};
  LLVMValueRef inside = LLVMBuildICmp(g->b, LLVMIntULT, off, ir_call_intrinsic(g->b, "llvm.usub.sat", &g->i64, 1, buf_args, 2), "");
  LLVMValueRef aligned = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, off, least, ""), LLVMConstInt(g->i64, 0, 0), "");
  LLVMBasicBlockRef kept, shared, join2;
  rev_diamond(g, LLVMBuildAnd(g->b, inside, aligned, "private"), &kept, &shared, &join2);
  LLVMPositionBuilderAtEnd(g->b, kept);
  LLVMValueRef buffer = LLVMBuildIntToPtr(g->b, plan[REDIRECT_BUFFER], g->ptr_type, "");
  plain(g, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), buffer, &off, 1, ""), d, align < size ? align : size);
  LLVMBuildBr(g->b, join2);
  LLVMPositionBuilderAtEnd(g->b, shared);
  atomic(g, load, shadow, d, align, g->solo);
  LLVMBuildBr(g->b, join2);
  LLVMPositionBuilderAtEnd(g->b, join2);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
  return true;
}
