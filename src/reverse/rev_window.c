/* Adjoints of a stencil's neighbouring reads, summed in registers along the loop.
 *
 * A loop that reads a[i-1], a[i] and a[i+1] in iteration i adds, in its reverse, three adjoints into
 * memory per iteration, and each element of a's shadow receives its three additions in three
 * consecutive iterations: the loads and stores of one iteration wait on the stores of the previous.
 * When the reads are at constant offsets from one address that moves by one element per iteration, the
 * reverse sweep instead keeps a window of registers, one per element the iteration touches: an adjoint
 * goes into its register, and at the end of each iteration the element that no later iteration touches
 * is added into memory once, and the window slides by one. After the loop (its first iteration), the
 * elements still in the window are added, those some iteration touched.
 *
 * Adding later is the same as adding now while nothing else reads the window's elements in between:
 * the loop's other adjoint additions commute with the window's; a store's reverse, which reads its
 * shadow and clears it, must not reach them. A store at another offset from the same address moving the
 * same way is apart by construction; any other store is checked at run time, once per run of the loop,
 * by comparing the address ranges the run covers; when they meet, the run adds into memory as usual.
 * Calls, atomics and other memory the reverse may read leave the loop as it is. */
#include <stdio.h>
#include <stdlib.h>

#include "ad/constants.h"
#include "reverse/rev_internal.h"

enum { MAX_SPAN = 8, MAX_MEMBERS = 32, MAX_TERMS = 3 };

/* An address root + sum of terms + coef * iv + offset (bytes): root and the terms (integers times a
 * constant number of bytes) are the same in every iteration, iv is one of the loop's induction variables
 * (NULL when the address does not move). A row's offset computed once before the loop (i * (n + 2)) is
 * such a term: the reads of a[i][j-1], a[i][j] and a[i][j+1] are on one line, however clang spelled
 * their addresses. */
typedef struct {
  LLVMValueRef root;
  int nterms;
  LLVMValueRef term[MAX_TERMS];
  long long scale[MAX_TERMS];
  Induction *iv;
  long long coef, offset;
} Affine;

static bool fits(long long v) { return v > -(1ll << 40) && v < (1ll << 40); }

/* out += k * (v's terms) */
static bool add_term(Affine *out, LLVMValueRef v, long long k) {
  for (int i = 0; i < out->nterms; i++)
    if (out->term[i] == v) return !__builtin_add_overflow(out->scale[i], k, &out->scale[i]) && fits(out->scale[i]);
  if (out->nterms == MAX_TERMS) return false;
  out->term[out->nterms] = v;
  out->scale[out->nterms++] = k;
  return true;
}

static bool add_affine(Affine *out, const Affine *x, long long k) {
  long long t;
  if (x->iv && out->iv && x->iv != out->iv) return false;
  if (x->iv) out->iv = x->iv;
  for (int i = 0; i < x->nterms; i++)
    if (__builtin_mul_overflow(x->scale[i], k, &t) || !add_term(out, x->term[i], t)) return false;
  if (__builtin_mul_overflow(x->coef, k, &t) || __builtin_add_overflow(out->coef, t, &out->coef)) return false;
  if (__builtin_mul_overflow(x->offset, k, &t) || __builtin_add_overflow(out->offset, t, &out->offset)) return false;
  return fits(out->coef) && fits(out->offset);
}

/* out += k * v, v an integer: constants, the loop's invariants (terms) and its induction variables,
 * combined by adds and constant multiples. */
static bool linear_int(RevGen *g, Loop *l, LLVMValueRef v, long long k, Affine *out, int depth) {
  if (LLVMIsAConstantInt(v)) {
    long long t;
    return !__builtin_mul_overflow(LLVMConstIntGetSExtValue(v), k, &t) && !__builtin_add_overflow(out->offset, t, &out->offset) &&
           fits(out->offset);
  }
  for (size_t i = 0; i < l->ivs.len; i++)
    if (l->ivs.data[i].phi == v) {
      Affine x = {.iv = &l->ivs.data[i], .coef = 1};
      return add_affine(out, &x, k);
    }
  if (loop_invariant(g, l, v)) return LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64 && add_term(out, v, k);
  if (!LLVMIsAInstruction(v) || depth > 12) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op == LLVMSExt) { /* of an induction variable that does not wrap */
    LLVMValueRef x = LLVMGetOperand(v, 0);
    Induction *iv = NULL;
    for (size_t i = 0; i < l->ivs.len; i++)
      if (l->ivs.data[i].phi == x) iv = &l->ivs.data[i];
    if (!iv) return false;
    for (unsigned i = 0; i < LLVMCountIncoming(x); i++) {
      LLVMValueRef next = LLVMGetIncomingValue(x, i);
      if (LLVMIsAInstruction(next) && in_loop(g, l, LLVMGetInstructionParent(next)))
        return LLVMGetInstructionOpcode(next) == LLVMAdd && LLVMGetNSW(next) && linear_int(g, l, x, k, out, depth + 1);
    }
    return false;
  }
  LLVMValueRef a = LLVMGetNumOperands(v) == 2 ? LLVMGetOperand(v, 0) : NULL, b = a ? LLVMGetOperand(v, 1) : NULL;
  switch (op) {
  case LLVMAdd:
  case LLVMSub:
    return linear_int(g, l, a, k, out, depth + 1) && linear_int(g, l, b, op == LLVMAdd ? k : -k, out, depth + 1);
  case LLVMMul:
  case LLVMShl: {
    if (op == LLVMMul && LLVMIsAConstantInt(a)) {
      LLVMValueRef t = a;
      a = b, b = t;
    }
    if (!LLVMIsAConstantInt(b)) return false;
    long long c = LLVMConstIntGetSExtValue(b), kc;
    if (op == LLVMShl) {
      if (c < 0 || c > 30) return false;
      c = 1ll << c;
    }
    return !__builtin_mul_overflow(k, c, &kc) && fits(kc) && linear_int(g, l, a, kc, out, depth + 1);
  }
  default: return false;
  }
}

/* A chain of one-index GEPs from a pointer that is not a GEP. */
static bool gep_chain(RevGen *g, Loop *l, LLVMValueRef p, Affine *out, int depth) {
  p = ir_strip_pointer_casts(p);
  if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 2 || depth > 12) {
    if (!loop_invariant(g, l, p)) return false;
    *out = (Affine){.root = p};
    return true;
  }
  long long size = (long long)ir_type_size(g->ad->mod, LLVMGetGEPSourceElementType(p));
  LLVMValueRef idx = LLVMGetOperand(p, 1);
  if (LLVMGetIntTypeWidth(LLVMTypeOf(idx)) != 64) return false;
  return gep_chain(g, l, LLVMGetOperand(p, 0), out, depth + 1) && linear_int(g, l, idx, size, out, 0);
}

/* An address as an Affine, its terms without zero scales. */
static bool affine(RevGen *g, Loop *l, LLVMValueRef p, Affine *out) {
  if (!gep_chain(g, l, p, out, 0)) return false;
  int n = 0;
  for (int i = 0; i < out->nterms; i++)
    if (out->scale[i]) out->term[n] = out->term[i], out->scale[n++] = out->scale[i];
  out->nterms = n;
  return true;
}

/* The same root, terms (in any order: clang sums them in any) and movement: addresses a constant apart. */
static bool same_line(const Affine *x, const Affine *y) {
  if (x->root != y->root || x->iv != y->iv || x->coef != y->coef || x->nterms != y->nterms) return false;
  for (int i = 0; i < x->nterms; i++) {
    int j = 0;
    while (j < y->nterms && y->term[j] != x->term[i]) j++;
    if (j == y->nterms || y->scale[j] != x->scale[i]) return false;
  }
  return true;
}

typedef struct {
  LLVMValueRef load;
  int k; /* its element: k elements after the lowest one's, in the direction the loop moves */
} Member;

/* The loads of one window: same root, induction variable, step and element type. */
typedef struct {
  Loop *loop;
  Affine at;         /* of the first member; the others differ in offset */
  long long stride;  /* bytes the address moves per iteration: plus or minus the element's size */
  LLVMTypeRef type;
  unsigned size, align;
  VEC(Member) members;
  int kmin, kmax;
  bool checked;      /* some store needs a check at run time */
  LLVMValueRef *sum, *touched; /* rev: per element of the window, kmin .. kmax */
} Window;

typedef VEC(Window) WindowList;

/* A store of the loop whose range is compared with a window's before each run. */
typedef struct {
  Window *window;
  LLVMValueRef store;
  Affine at;
} Check;

struct Windows {
  WindowList list;
  VEC(Check) checks; /* filled after list stops growing: pointers into it stay */
  ValueMap window_of; /* load -> 1 + its window's index */
  ValueMap flag_of;   /* loop -> rev: slot holding whether this run uses its windows */
};

/* Whether the reverse of inst may read memory or leaves it to code out of sight. */
static bool blocks_windows(RevGen *g, LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMCall: {
    const MathRule *rule;
    switch (call_classify(inst, &rule)) {
    case CALL_MATH: return rule->writes != WRITES_NONE; /* its reverse clears what it wrote (modf's integral part) */
    case CALL_DEBUG:
    case CALL_INACTIVE: return false;
    default: return true;
    }
  }
  case LLVMInvoke:
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
  case LLVMFence: return true;
  case LLVMAlloca: return activity_shadowed(g->act, inst);
  default: return false;
  }
}

/* A load whose adjoint may go into a window. */
static bool candidate(RevGen *g, Loop *l, LLVMValueRef load, Affine *at) {
  LLVMTypeRef t = LLVMTypeOf(load);
  if (!ir_is_fp(t) || !activity_varied(g->act, load) || adj_type_of(g, load) != t) return false;
  if (LLVMGetOrdering(load) != LLVMAtomicOrderingNotAtomic || LLVMGetVolatile(load)) return false;
  if (!shared_decided_per_run(g, load, l)) return false;
  if (ad_load_through_view(g->act, load)) return false; /* its shadow may be its own memory (ad/constants.h) */
  return affine(g, l, LLVMGetOperand(load, 0), at) && activity_shadowed(g->act, at->root);
}

/* A window for the address: on its line, or, for an address the loop does not move, at it. */
static Window *find_window(WindowList *list, Loop *l, const Affine *at, LLVMTypeRef t) {
  for (size_t i = 0; i < list->len; i++)
    if (list->data[i].loop == l && list->data[i].type == t && same_line(&list->data[i].at, at) &&
        (at->iv || list->data[i].at.offset == at->offset))
      return &list->data[i];
  return NULL;
}

/* The windows of one loop: counted, of one block (every iteration runs all of it). */
static void analyse_loop(RevGen *g, struct Windows *w, Loop *l) {
  LLVMBasicBlockRef bb = l->header;
  if (!l->ivs.len || l->latch != bb) return;
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    if (l->body[b] && g->cfg.blocks.data[b] != bb) return;
  size_t first = w->list.len;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    if (blocks_windows(g, i)) {
      for (size_t k = first; k < w->list.len; k++) vec_free(&w->list.data[k].members);
      w->list.len = first;
      return;
    }
    Affine at;
    if (!LLVMIsALoadInst(i) || !candidate(g, l, i, &at)) continue;
    long long size = (long long)ir_type_size(g->ad->mod, LLVMTypeOf(i));
    long long stride = at.iv ? at.coef * LLVMConstIntGetSExtValue(at.iv->step) : 0;
    if (stride != size && stride != -size && stride != 0) continue;
    Window *win = find_window(&w->list, l, &at, LLVMTypeOf(i));
    if (!win) {
      vec_push(&w->list, ((Window){.loop = l, .at = at, .stride = stride, .type = LLVMTypeOf(i), .size = (unsigned)size,
                                   .align = LLVMGetAlignment(i)}));
      win = &w->list.data[w->list.len - 1];
    }
    long long diff = at.offset - win->at.offset;
    if (stride && (diff % stride || diff / stride > 1 << 20 || diff / stride < -(1 << 20))) continue;
    if (win->members.len == MAX_MEMBERS) continue;
    vec_push(&win->members, ((Member){i, stride ? (int)(diff / stride) : 0}));
    if (LLVMGetAlignment(i) < win->align) win->align = LLVMGetAlignment(i);
  }
  /* of each line's loads, those of the span of MAX_SPAN elements that holds the most (the others add
   * into memory as usual); kept when they touch two elements or more, with k counted from the lowest.
   * An address the loop does not move is one element that never slides: always worth a register. */
  size_t keep = first;
  for (size_t k = first; k < w->list.len; k++) {
    Window win = w->list.data[k];
    size_t best = 0;
    for (size_t m = 0; m < win.members.len; m++) {
      size_t count = 0;
      for (size_t o = 0; o < win.members.len; o++)
        count += win.members.data[o].k >= win.members.data[m].k && win.members.data[o].k <= win.members.data[m].k + MAX_SPAN;
      if (count > best) best = count, win.kmin = win.members.data[m].k;
    }
    size_t n = 0;
    win.kmax = win.kmin;
    for (size_t m = 0; m < win.members.len; m++) {
      Member mb = win.members.data[m];
      if (mb.k < win.kmin || mb.k > win.kmin + MAX_SPAN) continue;
      if (mb.k > win.kmax) win.kmax = mb.k;
      win.members.data[n++] = mb;
    }
    win.members.len = n;
    if (win.kmin == win.kmax && win.stride) {
      vec_free(&win.members);
      continue;
    }
    for (size_t m = 0; m < win.members.len; m++) win.members.data[m].k -= win.kmin;
    win.at.offset += win.kmin * win.stride;
    win.kmax -= win.kmin;
    win.kmin = 0;
    w->list.data[keep++] = win;
  }
  w->list.len = keep;
}

/* The stores of a window's loop: apart by construction, checked at run time, or the window goes. */
static bool check_stores(RevGen *g, struct Windows *w, Window *win) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(win->loop->header); i; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsAStoreInst(i)) continue;
    LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1);
    if (!activity_shadowed(g->act, p) || ir_is_ptr(LLVMTypeOf(v))) continue; /* its reverse leaves memory alone */
    Affine at;
    if (!affine(g, win->loop, p, &at) || !activity_shadowed(g->act, at.root)) return false;
    long long diff = at.offset - win->at.offset;
    if (same_line(&at, &win->at) && !win->stride) {
      long long ssize = (long long)ir_type_size(g->ad->mod, LLVMTypeOf(v));
      if (diff < win->size && -diff < ssize) return false; /* it overlaps the element */
      continue;
    }
    if (same_line(&at, &win->at) && ir_type_size(g->ad->mod, LLVMTypeOf(v)) == win->size && diff % win->stride == 0) {
      if (diff / win->stride >= 0 && diff / win->stride <= win->kmax) return false; /* one of its elements */
      continue; /* it clears, in each iteration, an element outside the window */
    }
    vec_push(&w->checks, ((Check){win, i, at}));
    win->checked = true;
  }
  return true;
}

void window_analyse(RevGen *g) {
  struct Windows *w = xcalloc(1, sizeof *w);
  vmap_init(&w->window_of);
  vmap_init(&w->flag_of);
  for (size_t i = 0; i < g->loops.len; i++) analyse_loop(g, w, &g->loops.data[i]);
  size_t keep = 0;
  for (size_t i = 0; i < w->list.len; i++) {
    size_t checks = w->checks.len;
    if (check_stores(g, w, &w->list.data[i])) {
      w->list.data[keep++] = w->list.data[i];
      for (size_t c = checks; c < w->checks.len; c++) w->checks.data[c].window = &w->list.data[keep - 1];
    } else {
      w->checks.len = checks;
      vec_free(&w->list.data[i].members);
    }
  }
  w->list.len = keep;
  for (size_t i = 0; i < w->list.len; i++)
    for (size_t m = 0; m < w->list.data[i].members.len; m++)
      vmap_put(&w->window_of, w->list.data[i].members.data[m].load, (void *)(i + 1));
  g->windows = w;
  if (getenv("PARAD_PLAN"))
    for (size_t i = 0; i < w->list.len; i++)
      fprintf(stderr, "adjoint window in %s: %zu loads over %d elements%s\n", LLVMGetValueName(g->orig),
              w->list.data[i].members.len, w->list.data[i].kmax + 1, w->list.data[i].checked ? ", checked per run" : "");
}

void window_free(RevGen *g) {
  struct Windows *w = g->windows;
  if (!w) return;
  for (size_t i = 0; i < w->list.len; i++) {
    vec_free(&w->list.data[i].members);
    free(w->list.data[i].sum);
    free(w->list.data[i].touched);
  }
  vec_free(&w->list);
  vec_free(&w->checks);
  vmap_free(&w->window_of);
  vmap_free(&w->flag_of);
  free(w);
  g->windows = NULL;
}

/* ---- the reverse sweep ---- */

void window_slots(RevGen *g) {
  struct Windows *w = g->windows;
  LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
  for (size_t i = 0; i < w->list.len; i++) {
    Window *win = &w->list.data[i];
    win->sum = xcalloc((size_t)win->kmax + 1, sizeof *win->sum);
    win->touched = xcalloc((size_t)win->kmax + 1, sizeof *win->touched);
    for (int k = 0; k <= win->kmax; k++) {
      win->sum[k] = LLVMBuildAlloca(g->b, win->type, "window");
      win->touched[k] = LLVMBuildAlloca(g->b, i1, "window.touched");
    }
    if (win->checked && !vmap_has(&w->flag_of, win->loop)) {
      vmap_put(&w->flag_of, win->loop, LLVMBuildAlloca(g->b, i1, "window.on"));
      g->ad->run_long_conditions = true;
    }
  }
}

/* The shadow address root + terms + coef * x + offset + extra. */
static LLVMValueRef shadow_at(RevGen *g, const Affine *at, LLVMValueRef x, long long extra) {
  LLVMValueRef off = LLVMConstInt(g->i64, (unsigned long long)(at->offset + extra), 1);
  for (int i = 0; i < at->nterms; i++)
    if (at->scale[i])
      off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, rv(g, at->term[i]), LLVMConstInt(g->i64, (unsigned long long)at->scale[i], 1), ""), "");
  if (x) {
    LLVMValueRef scaled = LLVMBuildMul(g->b, LLVMBuildSExtOrBitCast(g->b, x, g->i64, ""),
                                       LLVMConstInt(g->i64, (unsigned long long)at->coef, 1), "");
    off = LLVMBuildAdd(g->b, scaled, off, "");
  }
  return LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), rs(g, at->root), &off, 1, "");
}

void window_rev_enter_loop(RevGen *g, Loop *l) {
  struct Windows *w = g->windows;
  bool planning = g->phase == PLANNING;
  LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
  for (size_t i = 0; i < w->list.len && !planning; i++) {
    Window *win = &w->list.data[i];
    if (win->loop != l) continue;
    for (int k = 0; k <= win->kmax; k++) {
      LLVMBuildStore(g->b, LLVMConstNull(win->type), win->sum[k]);
      LLVMBuildStore(g->b, LLVMConstNull(i1), win->touched[k]);
    }
  }
  /* first and last iterations of the run: the loop's start, and where the run ended */
  LLVMValueRef on = LLVMConstInt(i1, 1, 0);
  for (size_t c = 0; c < w->checks.len; c++) {
    Check *ch = &w->checks.data[c];
    Window *win = ch->window;
    if (win->loop != l) continue;
    LLVMValueRef first = win->at.iv ? rv(g, win->at.iv->start) : NULL, last = win->at.iv ? loop_iv_last(g, l, win->at.iv) : NULL;
    LLVMValueRef wlo, whi, slo, shi;
    address_span(g, shadow_at(g, &win->at, first, 0), shadow_at(g, &win->at, last, 0), win->size, &wlo, &whi);
    LLVMValueRef lo2, hi2; /* the window's far element in the same two iterations */
    address_span(g, shadow_at(g, &win->at, first, win->kmax * win->stride), shadow_at(g, &win->at, last, win->kmax * win->stride),
          win->size, &lo2, &hi2);
    LLVMValueRef los[2] = {wlo, lo2}, his[2] = {whi, hi2};
    wlo = ir_call_intrinsic(g->b, "llvm.umin", &g->i64, 1, los, 2);
    whi = ir_call_intrinsic(g->b, "llvm.umax", &g->i64, 1, his, 2);
    LLVMValueRef sfirst = ch->at.iv ? rv(g, ch->at.iv->start) : NULL, slast = ch->at.iv ? loop_iv_last(g, l, ch->at.iv) : NULL;
    unsigned ssize = (unsigned)ir_type_size(g->ad->mod, LLVMTypeOf(LLVMGetOperand(ch->store, 0)));
    address_span(g, shadow_at(g, &ch->at, sfirst, 0), shadow_at(g, &ch->at, slast, 0), ssize, &slo, &shi);
    LLVMValueRef apart = LLVMBuildOr(g->b, LLVMBuildICmp(g->b, LLVMIntULE, shi, wlo, ""),
                                     LLVMBuildICmp(g->b, LLVMIntULE, whi, slo, ""), "");
    on = LLVMBuildAnd(g->b, on, apart, "");
  }
  LLVMValueRef flag = vmap_get(&w->flag_of, l);
  if (flag && !planning) {
    LLVMBuildStore(g->b, on, flag);
    shared_narrow_run(g, l, on);
  }
}

/* if (cond) { caller's code } else { no }, with the builder left in the first part. */
static void branch(RevGen *g, LLVMValueRef cond, LLVMBasicBlockRef *no, LLVMBasicBlockRef *join) {
  LLVMBasicBlockRef yes;
  rev_diamond(g, cond, &yes, no, join);
  LLVMPositionBuilderAtEnd(g->b, yes);
}

/* Whether the window is used this run: its check. In a loop whose adjoints of shared memory are decided
 * per run, the decision has the check folded in, and the window's flag is written as (decided or check):
 * the same value, but in the loop's copy for decided runs it is constant true, so that the unswitching
 * needs no further copy for it (its cost limit stopped the 2-D stencil's reverse one copy short). */
static LLVMValueRef flag_value(RevGen *g, Window *win) {
  LLVMValueRef slot = win->checked ? vmap_get(&g->windows->flag_of, win->loop) : NULL;
  if (!slot) return NULL;
  LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
  LLVMValueRef on = LLVMBuildLoad2(g->b, i1, slot, "window.on"), decided = shared_run_slot(g, win->loop);
  return decided ? LLVMBuildOr(g->b, LLVMBuildLoad2(g->b, i1, decided, "decided"), on, "window.on") : on;
}

const void *window_of(RevGen *g, LLVMValueRef load) {
  struct Windows *w = g->windows;
  size_t i1 = w ? (size_t)vmap_get(&w->window_of, load) : 0;
  return i1 ? &w->list.data[i1 - 1] : NULL;
}

bool window_accumulate(RevGen *g, LLVMValueRef load, LLVMValueRef shadow, LLVMValueRef d) {
  struct Windows *w = g->windows;
  size_t i1 = w ? (size_t)vmap_get(&w->window_of, load) : 0;
  if (!i1 || g->phase == PLANNING) return false;
  Window *win = &w->list.data[i1 - 1];
  int k = 0;
  for (size_t m = 0; m < win->members.len; m++)
    if (win->members.data[m].load == load) k = win->members.data[m].k;
  LLVMValueRef on = flag_value(g, win);
  LLVMBasicBlockRef no = NULL, join = NULL;
  if (on) branch(g, on, &no, &join);
  LLVMBuildStore(g->b, ir_adjoint_sum(g->b, LLVMBuildLoad2(g->b, win->type, win->sum[k], ""), d), win->sum[k]);
  LLVMBuildStore(g->b, LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 1, 0), win->touched[k]);
  if (on) {
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, no);
    rev_accumulate_load(g, load, shadow, d, LLVMGetAlignment(load));
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
  }
  return true;
}

void window_end_iteration(RevGen *g, LLVMBasicBlockRef bb) {
  struct Windows *w = g->windows;
  for (size_t i = 0; i < w->list.len; i++) {
    Window *win = &w->list.data[i];
    if (win->loop->header != bb) continue;
    /* the element the next iteration no longer touches: the member farthest along the loop's way */
    Member *far = NULL;
    for (size_t m = 0; m < win->members.len; m++)
      if (win->members.data[m].k == win->kmax) far = &win->members.data[m];
    LLVMValueRef far_at = rs(g, LLVMGetOperand(far->load, 0));
    Induction *first_iv = &win->loop->ivs.data[0];
    LLVMValueRef is_first = LLVMBuildICmp(g->b, LLVMIntEQ, rv(g, first_iv->phi), rv(g, first_iv->start), "");
    if (g->phase == PLANNING) continue;
    LLVMValueRef on = flag_value(g, win);
    LLVMBasicBlockRef off = NULL, done = NULL;
    if (on) branch(g, on, &off, &done);
    LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
    int n = win->kmax;
    LLVMBasicBlockRef join, slide;
    if (!win->stride) { /* an address the loop does not move: added once, after the loop's first iteration */
      branch(g, LLVMBuildAnd(g->b, is_first, LLVMBuildLoad2(g->b, i1, win->touched[0], ""), ""), &slide, &join);
      rev_accumulate_load(g, far->load, far_at, LLVMBuildLoad2(g->b, win->type, win->sum[0], ""), win->align);
    } else {
      rev_accumulate_load(g, far->load, far_at, LLVMBuildLoad2(g->b, win->type, win->sum[n], ""), win->align);
      branch(g, is_first, &slide, &join);
    }
    for (int k = 0; k < n; k++) { /* after the loop's first iteration: what the window still holds */
      LLVMBasicBlockRef skip, next;
      branch(g, LLVMBuildLoad2(g->b, i1, win->touched[k], ""), &skip, &next);
      LLVMValueRef back = LLVMConstInt(g->i64, (unsigned long long)((k - n) * win->stride), 1);
      rev_accumulate_load(g, far->load, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), far_at, &back, 1, ""),
                          LLVMBuildLoad2(g->b, win->type, win->sum[k], ""), win->align);
      LLVMBuildBr(g->b, next);
      LLVMPositionBuilderAtEnd(g->b, skip);
      LLVMBuildBr(g->b, next);
      LLVMPositionBuilderAtEnd(g->b, next);
    }
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, slide); /* element k of this iteration is element k + 1 of the one before */
    for (int k = n; k > 0; k--) {
      LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, win->type, win->sum[k - 1], ""), win->sum[k]);
      LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, i1, win->touched[k - 1], ""), win->touched[k]);
    }
    if (win->stride) {
      LLVMBuildStore(g->b, LLVMConstNull(win->type), win->sum[0]);
      LLVMBuildStore(g->b, LLVMConstNull(i1), win->touched[0]);
    }
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
    if (on) {
      LLVMBuildBr(g->b, done);
      LLVMPositionBuilderAtEnd(g->b, off);
      LLVMBuildBr(g->b, done);
      LLVMPositionBuilderAtEnd(g->b, done);
    }
  }
}
