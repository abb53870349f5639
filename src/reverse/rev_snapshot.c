/* Reads of loops read back from a snapshot of what they read.
 *
 * A loop that reads an array the program overwrites later (a CG iteration's product reads p at p[col[k]],
 * and the direction update then rewrites p) has each value it reads recorded, read by read: 8 bytes a
 * nonzero, where the array itself is a fifth of that. Where nothing in the loop can write the array
 * (its stores are to objects that cannot alias it, it calls nothing that writes memory), the array
 * holds, as the loop ends, every value the loop read from it: the forward sweep then notes the lowest
 * and highest address the loop's reads touched, copies that range onto the tape as the loop ends, and the
 * reverse sweep, entering the loop's reverse, takes the copy back and reads each value at its address's
 * place in it. A region's threads copy their inputs the same way (rev_shared.c), per call; this is the
 * form per run of a loop, for serial code and for the reads a region's copies leave recorded (an array a
 * thread overwrites later in the region: doitgen's slice). In a region, no other thread writes what the
 * loop read before its copy is made: that would race with the read, since the loop synchronises with
 * nothing (an OpenMP call is a call that may write). Like the region's copies, the copy spans the range
 * between the reads, which may hold other threads' elements: those values are never read back.
 *
 * The copy is the whole range between the lowest and the highest address read: a gather that reads a few
 * elements far apart copies everything between them (as a region's copy does). The loop is the outermost
 * loop around the read in which it qualifies, and not the read's innermost (snapshot_analyse), so that a
 * loop nest (the product's rows and their nonzeros) copies once. Records: the copy, then its address and size (16 bytes), pushed at the start of
 * the block the loop exits to, so that they lie above everything the run recorded; no block follows into
 * that block (plan_followers), and no loop around it reserves its records at once (rev_bulk.c). */
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reverse/rev_internal.h"

typedef struct {
  Loop *loop;
  LLVMBasicBlockRef exit;  /* the loop's one exit block, all of whose predecessors are in the loop */
  LLVMValueRef root;       /* the object read */
  ValueList loads;         /* its reads in the loop, read back from the copy */
  unsigned align;          /* the reads' alignment where they share one, else 1 */
  LLVMValueRef lo, hi;     /* aug: the run's range so far; rev: lo, where the copy starts (slots) */
  LLVMValueRef copy;       /* rev: the copy (a slot) */
} Snapshot;

/* A gather read back from a snapshot whose range is found from the stretch of its index array the run
 * read (see "gathers through an index array" below). */
typedef struct {
  LLVMValueRef load;
  IndexedGather x;
  LLVMValueRef run_lo, run_hi; /* aug: the stretch of the index array read since it was last noted */
} IndexRun;

struct Snapshots {
  VEC(Snapshot) v;
  ValueMap of;       /* load -> 1 + its snapshot's index */
  /* per loop (by its index in g->loops), found once: whether it may keep reads at all (no call that
     writes, one block to leave to: 2; else 1; 0 not yet asked), its stores and atomics, the distinct
     objects they write and whether those are all identified, or all stack slots whose address stays
     here (a read with no alias scopes is then told apart by its object alone), its size */
  signed char *calm;
  LLVMBasicBlockRef *exit; /* the loop's one exit (only_exit), for calm loops */
  ValueList *writes, *written;
  bool *written_private;
  size_t *size;
  ValueMap unescaped; /* stack slot -> 1 its address stays here, 2 it may not (slot_private) */
  ValueMap run_of;    /* aug: load -> its innermost loop, where a run's range is noted as the run starts */
  VEC(IndexRun) index_runs; /* aug: gathers whose ranges come from the runs of their index arrays */
  ValueMap index_of;        /* aug: gather -> 1 + its index in index_runs */
  LLVMValueRef index_out;   /* aug: two words, where __parad_rt_index_range puts a gather's range */
};

static Snapshot *snapshot_of(RevGen *g, LLVMValueRef load) {
  struct Snapshots *s = g->snapshots;
  size_t k = s ? (size_t)vmap_get(&s->of, load) : 0;
  return k ? &s->v.data[k - 1] : NULL;
}

/* ---- which loops' reads ---- */

/* An object whose memory no other identified object's overlaps: a stack slot, a global, a restrict
 * parameter, a block allocated here. */
static bool identified(LLVMValueRef r) {
  if (LLVMIsAAllocaInst(r) || LLVMIsAGlobalVariable(r)) return true;
  if (LLVMIsAArgument(r)) {
    return LLVMGetEnumAttributeAtIndex(LLVMGetParamParent(r), ir_param_index(r) + 1, ir_attr_kind("noalias")) != NULL;
  }
  return ir_is_call(r) && call_classify(r, NULL) == CALL_ALLOC;
}

/* Two pointers a loop swaps each iteration (`double *t = v; v = w; w = t;`): phis of one block that take
 * each other's values on every way in but where they start, from two distinct identified objects. On each
 * iteration one is each object: they never point into one. */
static bool swapped_apart(LLVMValueRef a, LLVMValueRef b) {
  if (a == b || !LLVMIsAPHINode(a) || !LLVMIsAPHINode(b) || LLVMGetInstructionParent(a) != LLVMGetInstructionParent(b) ||
      LLVMCountIncoming(a) != LLVMCountIncoming(b))
    return false;
  for (unsigned i = 0, n = LLVMCountIncoming(a); i < n; i++) {
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(a, i);
    LLVMValueRef x = ir_strip_pointer_casts(LLVMGetIncomingValue(a, i)), y = NULL;
    for (unsigned j = 0; j < n && !y; j++)
      if (LLVMGetIncomingBlock(b, j) == from) y = ir_strip_pointer_casts(LLVMGetIncomingValue(b, j));
    if (!y) return false;
    if (x == b && y == a) continue; /* the swap */
    if (x == y || !identified(x) || !identified(y)) return false;
  }
  return true;
}

/* Whether objects r and s (roots) are told apart: both identified, or a swapped pair. */
static bool objects_apart(LLVMValueRef r, LLVMValueRef s) {
  return r != s && ((identified(r) && identified(s)) || swapped_apart(r, s));
}

/* A stack slot whose address never leaves the function's own accesses of it (loads, stores into it,
 * offsets, memset and memcpy, its lifetime): no pointer of another object, an argument or one loaded
 * from memory, can point into it. A thread's private array in a region. */
static bool slot_unescaped(LLVMValueRef v, int depth) {
  if (depth > 8) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != v) continue;
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == v) {
      if (!slot_unescaped(user, depth + 1)) return false;
      continue;
    }
    if (ir_is_call(user)) {
      CallKind k = call_classify(user, NULL);
      unsigned id = LLVMGetIntrinsicID(LLVMGetCalledValue(user));
      bool lifetime = id && (id == LLVMLookupIntrinsicID("llvm.lifetime.start", 19) ||
                             id == LLVMLookupIntrinsicID("llvm.lifetime.end", 17));
      if (lifetime || ((k == CALL_MEMCPY || k == CALL_MEMSET) && id)) continue;
    }
    return false;
  }
  return true;
}

static bool slot_private(RevGen *g, LLVMValueRef r) {
  if (!LLVMIsAAllocaInst(r)) return false;
  struct Snapshots *s = g->snapshots;
  size_t known = (size_t)vmap_get(&s->unescaped, r);
  if (!known) vmap_put(&s->unescaped, r, (void *)(known = slot_unescaped(r, 0) ? 1 : 2));
  return known == 1;
}

static LLVMValueRef md_list(LLVMValueRef inst, const char *kind, unsigned *n, LLVMValueRef **ops) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
  LLVMValueRef md = LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind)));
  *n = md ? LLVMGetMDNodeNumOperands(md) : 0;
  *ops = *n ? xcalloc(*n, sizeof **ops) : NULL;
  if (*n) LLVMGetMDNodeOperands(md, *ops);
  return md;
}

static LLVMValueRef scope_domain(LLVMValueRef scope) {
  LLVMValueRef ops[8];
  unsigned n = LLVMGetMDNodeNumOperands(scope);
  if (n < 2 || n > 8) return NULL; /* a scope is {itself or a name, its domain, a description} */
  LLVMGetMDNodeOperands(scope, ops);
  return ops[1];
}

static bool listed(LLVMValueRef *ops, unsigned n, LLVMValueRef v) {
  for (unsigned i = 0; i < n; i++)
    if (ops[i] == v) return true;
  return false;
}

/* Whether a's alias scopes say it never touches what b touches: for some domain of b's noalias scopes,
 * every scope of a in that domain is one of them (the rule of LLVM's scoped-noalias analysis; inlining a
 * function with restrict parameters leaves such scopes). */
static bool scoped_apart(LLVMValueRef a, LLVMValueRef b) {
  unsigned na, nb;
  LLVMValueRef *sa, *nob;
  bool apart = false;
  if (md_list(a, "alias.scope", &na, &sa) && md_list(b, "noalias", &nb, &nob)) {
    for (unsigned d = 0; d < nb && !apart; d++) {
      LLVMValueRef domain = scope_domain(nob[d]);
      unsigned in_domain = 0, covered = 0;
      for (unsigned i = 0; i < na; i++) {
        if (scope_domain(sa[i]) != domain) continue;
        in_domain++;
        covered += listed(nob, nb, sa[i]);
      }
      apart = domain && in_domain && covered == in_domain;
    }
    free(nob);
  }
  free(sa);
  return apart;
}

/* p as base + stride * i + off, 0 <= off: an inbounds GEP over a type of `stride` bytes whose first index
 * varies and whose others are constants (an element's field), under constant offsets. */
static bool strided_place(LLVMModuleRef m, LLVMValueRef p, LLVMValueRef *base, long long *stride, long long *off) {
  long long o = 0;
  p = ir_strip_constant_offsets(m, p, &o);
  unsigned n = LLVMIsAGetElementPtrInst(p) ? (unsigned)LLVMGetNumOperands(p) : 0;
  if (n < 2 || !LLVMIsInBounds(p) || LLVMIsAConstant(LLVMGetOperand(p, 1))) return false;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  *stride = (long long)LLVMABISizeOfType(td, t);
  for (unsigned i = 2; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(p, i);
    if (!LLVMIsAConstantInt(idx)) return false;
    long long k = LLVMConstIntGetSExtValue(idx);
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      o += (long long)LLVMOffsetOfElement(td, t, (unsigned)k);
      t = LLVMStructGetTypeAtIndex(t, (unsigned)k);
    } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
      t = LLVMGetElementType(t);
      o += k * (long long)LLVMABISizeOfType(td, t);
    } else {
      return false;
    }
  }
  *base = ir_strip_pointer_casts(LLVMGetOperand(p, 0)), *off = o;
  return o >= 0;
}

/* Whether a and b are one pointer: one value, or loads of a parameter the function only reads (a
 * region's captured array, loaded again after a call). */
static bool same_pointer(LLVMValueRef a, LLVMValueRef b) {
  if (a == b) return true;
  if (!LLVMIsALoadInst(a) || !LLVMIsALoadInst(b) || LLVMGetVolatile(a) || LLVMGetVolatile(b)) return false;
  LLVMValueRef at = ir_strip_pointer_casts(LLVMGetOperand(a, 0));
  return at == ir_strip_pointer_casts(LLVMGetOperand(b, 0)) && LLVMIsAArgument(at) &&
         LLVMGetEnumAttributeAtIndex(LLVMGetParamParent(at), ir_param_index(at) + 1, ir_attr_kind("readonly"));
}

/* Whether accesses a and b (loads or stores) touch different fields of the elements of one array, at
 * whichever indices: a particle's density stored while other particles' positions are read
 * (`p[i].rho = s` after `p[j].x`), which made a cell list's gather copy its reads per particle. */
static bool fields_apart(RevGen *g, LLVMValueRef a, LLVMValueRef b) {
  LLVMModuleRef m = g->ad->mod;
  LLVMValueRef pa = LLVMGetOperand(a, LLVMIsAStoreInst(a) ? 1 : 0), pb = LLVMGetOperand(b, LLVMIsAStoreInst(b) ? 1 : 0);
  LLVMValueRef ba, bb;
  long long sa, sb, oa, ob;
  if (!strided_place(m, pa, &ba, &sa, &oa) || !strided_place(m, pb, &bb, &sb, &ob) || !same_pointer(ba, bb) || sa != sb)
    return false;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  long long za = (long long)LLVMABISizeOfType(td, LLVMTypeOf(LLVMIsAStoreInst(a) ? LLVMGetOperand(a, 0) : a));
  long long zb = (long long)LLVMABISizeOfType(td, LLVMTypeOf(LLVMIsAStoreInst(b) ? LLVMGetOperand(b, 0) : b));
  return oa + za <= sa && ob + zb <= sb && (oa + za <= ob || ob + zb <= oa);
}

/* Whether store (or atomic) w may write what load reads. */
static bool may_write(RevGen *g, LLVMValueRef w, LLVMValueRef load) {
  LLVMValueRef at = LLVMGetOperand(w, LLVMIsAStoreInst(w) ? 1 : 0);
  LLVMValueRef rw = rev_root_of(at), rl = rev_root_of(LLVMGetOperand(load, 0));
  if (objects_apart(rw, rl) || (rw != rl && slot_private(g, rw))) return false;
  if (LLVMIsAStoreInst(w) && fields_apart(g, w, load)) return false;
  return !scoped_apart(load, w) && !scoped_apart(w, load);
}

/* The block l leaves to, if it has one only and l is its only way in. A block that ends the program
 * (an assertion's failure: its terminator is `unreachable`) is no way out: no reverse sweep follows it. */
static LLVMBasicBlockRef only_exit(RevGen *g, Loop *l) {
  LLVMBasicBlockRef exit = NULL;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    if (!l->body[b]) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(g->cfg.blocks.data[b]);
    for (unsigned i = 0, n = LLVMGetNumSuccessors(term); i < n; i++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, i);
      LLVMValueRef end = LLVMGetBasicBlockTerminator(s);
      if (in_loop(g, l, s) || (end && LLVMIsAUnreachableInst(end))) continue;
      if (exit && exit != s) return NULL;
      exit = s;
    }
  }
  if (!exit) return NULL;
  BlockList *preds = &g->cfg.preds[cfg_index(&g->cfg, exit)];
  for (size_t k = 0; k < preds->len; k++)
    if (!in_loop(g, l, preds->data[k])) return NULL;
  return exit;
}

/* Loop l's summary (struct Snapshots), made on the first question. */
static bool loop_calm(RevGen *g, Loop *l) {
  struct Snapshots *s = g->snapshots;
  size_t k = (size_t)(l - g->loops.data);
  if (s->calm[k]) return s->calm[k] == 2;
  bool calm = (s->exit[k] = only_exit(g, l)) != NULL;
  for (size_t b = 0; b < g->cfg.blocks.len && calm; b++) {
    if (!l->body[b]) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i && calm; i = LLVMGetNextInstruction(i)) {
      switch (LLVMGetInstructionOpcode(i)) {
      case LLVMStore:
      case LLVMAtomicRMW:
      case LLVMAtomicCmpXchg: {
        LLVMValueRef root = rev_root_of(LLVMGetOperand(i, LLVMIsAStoreInst(i) ? 1 : 0));
        vec_push(&s->writes[k], i);
        if (!ir_list_has(&s->written[k], root)) vec_push(&s->written[k], root);
        break;
      }
      case LLVMCall: calm = call_writes_nothing(i); break;
      case LLVMFence:
      case LLVMInvoke:
      case LLVMCallBr: calm = false; break;
      default: break;
      }
    }
  }
  s->written_private[k] = true;
  for (size_t i = 0; i < s->written[k].len; i++) {
    LLVMValueRef r = s->written[k].data[i];
    s->written_private[k] &= slot_private(g, r);
  }
  s->calm[k] = calm ? 2 : 1;
  return calm;
}

static bool has_scopes(LLVMValueRef inst) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
  return LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(ctx, "alias.scope", 11)) ||
         LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(ctx, "noalias", 7));
}

/* Whether a run of l may read load's values from a copy made as it ends: the object is the same in the
 * whole run, nothing in l writes what the load reads, l calls nothing that writes memory (or the tape),
 * and l leaves to one block only it enters. */
static bool loop_keeps(RevGen *g, Loop *l, LLVMValueRef load) {
  LLVMValueRef root = rev_root_of(LLVMGetOperand(load, 0));
  if (LLVMIsAInstruction(root) && in_loop(g, l, LLVMGetInstructionParent(root))) return false;
  if (!loop_calm(g, l)) return false;
  struct Snapshots *s = g->snapshots;
  size_t k = (size_t)(l - g->loops.data);
  if (!has_scopes(load)) { /* told apart by objects alone (may_write), at the cost of a look-up */
    if (!s->writes[k].len || (s->written_private[k] && !ir_list_has(&s->written[k], root))) return true;
    bool apart = true;
    for (size_t i = 0; i < s->written[k].len && apart; i++) apart = objects_apart(s->written[k].data[i], root);
    for (size_t i = 0; i < s->writes[k].len && !apart; i++) /* the same object: its elements' other fields? */
      if (may_write(g, s->writes[k].data[i], load)) return false;
    return true;
  }
  for (size_t i = 0; i < s->writes[k].len; i++)
    if (may_write(g, s->writes[k].data[i], load)) return false;
  return true;
}

static size_t loop_size(RevGen *g, Loop *l) {
  struct Snapshots *s = g->snapshots;
  size_t k = (size_t)(l - g->loops.data);
  if (!s->size[k])
    for (size_t b = 0; b < g->cfg.blocks.len; b++) s->size[k] += l->body[b];
  return s->size[k];
}

/* The outermost loop around load whose runs may read it from a copy (loops only grow outwards, each
 * holding the last), and in *depth how many loops out from the load's innermost it is (0: none). */
static Loop *snapshot_loop(RevGen *g, LLVMValueRef load, size_t *depth) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(load);
  Loop *chain[64]; /* the loops around the load, innermost first */
  size_t n = 0;
  for (Loop *best = NULL; n < 64; best = chain[n++]) {
    Loop *next = NULL; /* the smallest loop around bb larger than best */
    for (size_t i = 0; i < g->loops.len; i++) {
      Loop *l = &g->loops.data[i];
      if (l == best || !in_loop(g, l, bb) || (best && !in_loop(g, l, best->header))) continue;
      if (!next || loop_size(g, l) < loop_size(g, next)) next = l;
    }
    if (!next) break;
    chain[n] = next;
  }
  size_t k = 0;
  while (k < n && loop_keeps(g, chain[k], load)) k++;
  *depth = k;
  return k ? chain[k - 1] : NULL;
}

/* A load whose value the forward sweep would record: a float of memory the reverse sweep cannot read
 * again. */
static bool recorded_float(RevGen *g, LLVMValueRef i) {
  return LLVMIsALoadInst(i) && !LLVMGetVolatile(i) && LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic &&
         ir_is_fp(LLVMTypeOf(i)) && activity_varied(g->act, i) && !reloadable(g, i) && !shared_copies(g, i);
}

/* A read's alignment, at most the tape's 8 bytes: the copy keeps the range's offsets from an 8-byte
 * boundary only up to that. */
static unsigned read_align(LLVMValueRef load) {
  unsigned a = LLVMGetAlignment(load);
  return a < 8 ? a : 8;
}

/* Whether a run of l would copy far more than load reads in it: the address moves by a constant in every
 * loop from the load's to l, each of a constant trip count, and the range they span is more than four
 * times the bytes read (a padded convolution's taps, copied per output pixel across every input channel:
 * a range of 115 KB for 72 reads, a 3.8 GB tape). Where this is not known, the copy is made. */
static bool sparse_in_run(RevGen *g, Loop *l, LLVMValueRef load) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(load);
  double range = 0, reads = 1;
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *in = &g->loops.data[i];
    if (!in_loop(g, in, bb) || !in_loop(g, l, in->header)) continue;
    long long step;
    if (!in->exit_iv || !LLVMIsAConstantInt(in->limit) || !LLVMIsAConstantInt(in->exit_iv->start) ||
        !loop_constant_step(g, in, LLVMGetOperand(load, 0), &step, 0))
      return false;
    long long span = LLVMConstIntGetSExtValue(in->limit) - LLVMConstIntGetSExtValue(in->exit_iv->start);
    long long by = LLVMConstIntGetSExtValue(in->exit_iv->step);
    double trips = (double)(span < 0 ? -span : span) / (double)(by < 0 ? -by : by) + 1;
    range += (trips - 1) * (double)(step < 0 ? -step : step);
    reads *= trips;
  }
  double size = (double)ir_type_size(g->ad->mod, LLVMTypeOf(load));
  return range + size > 4 * reads * size;
}

/* An address as a sum: a base pointer, terms (an opaque integer value times a byte factor) and a constant
 * byte offset, read through offsets, additions, subtractions, multiplications and shifts by constants and
 * extensions. Only for a cost (how far apart two reads are); wrapping is ignored. */
enum { MOST_TERMS = 8 };
typedef struct {
  LLVMValueRef base;
  LLVMValueRef term[MOST_TERMS];
  long long factor[MOST_TERMS];
  int terms;
  long long offset;
  bool failed;
} AddressSum;

static void add_term(AddressSum *a, LLVMValueRef v, long long factor) {
  for (int k = 0; k < a->terms; k++)
    if (a->term[k] == v) {
      a->factor[k] += factor;
      return;
    }
  if (a->terms == MOST_TERMS) {
    a->failed = true;
    return;
  }
  a->term[a->terms] = v, a->factor[a->terms++] = factor;
}

static void sum_integer(AddressSum *a, LLVMValueRef v, long long factor, int depth) {
  if (LLVMIsAConstantInt(v)) {
    a->offset += factor * LLVMConstIntGetSExtValue(v);
    return;
  }
  LLVMOpcode op = LLVMIsAInstruction(v) && depth < 8 ? LLVMGetInstructionOpcode(v) : LLVMUserOp1;
  LLVMValueRef c = op == LLVMMul || op == LLVMShl ? LLVMGetOperand(v, 1) : NULL;
  if (op == LLVMSExt || op == LLVMZExt) {
    sum_integer(a, LLVMGetOperand(v, 0), factor, depth + 1);
  } else if (op == LLVMAdd || op == LLVMSub) {
    sum_integer(a, LLVMGetOperand(v, 0), factor, depth + 1);
    sum_integer(a, LLVMGetOperand(v, 1), op == LLVMSub ? -factor : factor, depth + 1);
  } else if (c && LLVMIsAConstantInt(c) && LLVMConstIntGetSExtValue(c) < 32) {
    long long k = LLVMConstIntGetSExtValue(c);
    sum_integer(a, LLVMGetOperand(v, 0), op == LLVMMul ? factor * k : factor * (1LL << k), depth + 1);
  } else {
    add_term(a, v, factor);
  }
}

static void sum_address(RevGen *g, AddressSum *a, LLVMValueRef p, int depth) {
  p = ir_strip_pointer_casts(p);
  if (!LLVMIsAGetElementPtrInst(p) || depth > 8) {
    a->base = p;
    return;
  }
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(g->ad->mod);
  LLVMTypeRef t = LLVMGetGEPSourceElementType(p);
  for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(p); i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(p, i);
    if (i > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
      a->offset += (long long)LLVMOffsetOfElement(td, t, field);
      t = LLVMStructGetTypeAtIndex(t, field);
      continue;
    }
    if (i > 1) {
      if (LLVMGetTypeKind(t) != LLVMArrayTypeKind) {
        a->failed = true;
        return;
      }
      t = LLVMGetElementType(t);
    }
    sum_integer(a, idx, (long long)LLVMABISizeOfType(td, t), 0);
  }
  sum_address(g, a, LLVMGetOperand(p, 0), depth + 1);
}

/* Whether loads a and b read at a constant distance from each other (v[j - 1] and v[j + 1]; not two rows
 * of a matrix as far apart as a counter of an outer loop says, `L[i][k]` and `L[j][k]`). */
/* Whether every term of x has the same factor in y (0 where y lacks it). */
static bool terms_within(const AddressSum *x, const AddressSum *y) {
  for (int k = 0; k < x->terms; k++) {
    long long other = 0;
    for (int m = 0; m < y->terms; m++)
      if (y->term[m] == x->term[k]) other = y->factor[m];
    if (other != x->factor[k]) return false;
  }
  return true;
}

static bool constant_apart(RevGen *g, LLVMValueRef a, LLVMValueRef b) {
  AddressSum x = {0}, y = {0};
  sum_address(g, &x, LLVMGetOperand(a, 0), 0);
  sum_address(g, &y, LLVMGetOperand(b, 0), 0);
  return !x.failed && !y.failed && x.base == y.base && terms_within(&x, &y) && terms_within(&y, &x);
}

/* Whether a run of l reads load's object at several places per iteration, all near each other (a
 * stencil's taps, v[j - 1], v[j], v[j + 1]): its copy costs about one element an iteration where the
 * records cost one per tap. Reads far apart (a Cholesky factor's rows i and j, `L[i][k] * L[j][k]`; a
 * mesh's one-ring walk reading a triangle's three vertices, x[3 i], x[3 j], x[3 k]) would copy all that
 * lies between them, run after run: 128 MB of tape for a 100 x 100 factor, against 5 MB recorded; a tape
 * growing as the square of the mesh, 1 GB for 10,242 vertices. (The reads the copy takes are all of the
 * object's in the loop: one far from the others spreads it too.) */
static bool taps_in_run(RevGen *g, Loop *l, LLVMValueRef load) {
  LLVMValueRef root = rev_root_of(LLVMGetOperand(load, 0));
  unsigned taps = 0;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    if (!l->body[b]) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      if (!recorded_float(g, i) || rev_root_of(LLVMGetOperand(i, 0)) != root) continue;
      if (!constant_apart(g, i, load)) return false;
      taps++;
    }
  }
  return taps >= 2;
}

void snapshot_analyse(RevGen *g) {
  const char *off = getenv("PARAD_SNAPSHOTS"); /* =0: recorded read by read, as before (for comparisons) */
  /* a task's body may run on any thread, its reads of its inputs copied by rev_shared.c */
  if (g->task_body || (off && !strcmp(off, "0"))) return;
  struct Snapshots *s = xcalloc(1, sizeof *s);
  vmap_init(&s->of);
  vmap_init(&s->unescaped);
  vmap_init(&s->run_of);
  vmap_init(&s->index_of);
  s->calm = xcalloc(g->loops.len + 1, sizeof *s->calm);
  s->exit = xcalloc(g->loops.len + 1, sizeof *s->exit);
  s->writes = xcalloc(g->loops.len + 1, sizeof *s->writes);
  s->written = xcalloc(g->loops.len + 1, sizeof *s->written);
  s->written_private = xcalloc(g->loops.len + 1, sizeof *s->written_private);
  s->size = xcalloc(g->loops.len + 1, sizeof *s->size);
  g->snapshots = s;
  /* A loop's run copies what it read where the loop is not the read's innermost: a run of that reads
     each element about once (a row of a sparse product), and its copy would cost what its records do,
     and 16 bytes more; a loop around it reads again what its inner runs read (the rows of a banded
     matrix, a tile's rows). A read whose innermost loop is such a loop joins that loop's copy of its
     object, where there is one (a row's own p[i] beside its nonzeros' p[col[k]]), as it costs nothing;
     and the innermost loop copies where it reads the object at several places an iteration (a stencil's
     taps of an array swapped with another each step: a trinomial tree's 32 bytes of tape per node). */
  for (int pass = 0; pass < 2; pass++)
    for (size_t b = 0; b < g->cfg.blocks.len; b++)
      for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
        size_t depth;
        Loop *l = recorded_float(g, i) && !vmap_get(&s->of, i) ? snapshot_loop(g, i, &depth) : NULL;
        if (!l || (pass == 0 ? depth < 2 : depth != 1) || sparse_in_run(g, l, i)) continue;
        LLVMValueRef root = rev_root_of(LLVMGetOperand(i, 0));
        size_t k = 0;
        while (k < s->v.len && !(s->v.data[k].loop == l && s->v.data[k].root == root)) k++;
        if (k == s->v.len) {
          if (pass == 1 && !taps_in_run(g, l, i)) continue;
          Snapshot n = {.loop = l, .exit = s->exit[l - g->loops.data], .root = root, .align = read_align(i)};
          vec_push(&s->v, n);
        }
        Snapshot *sn = &s->v.data[k];
        if (sn->align != read_align(i)) sn->align = 1;
        vec_push(&sn->loads, i);
        vmap_put(&s->of, i, (void *)(uintptr_t)(k + 1));
      }
}

void snapshot_free(RevGen *g) {
  struct Snapshots *s = g->snapshots;
  if (!s) return;
  for (size_t k = 0; k < s->v.len; k++) vec_free(&s->v.data[k].loads);
  for (size_t k = 0; k < g->loops.len; k++) vec_free(&s->writes[k]), vec_free(&s->written[k]);
  vec_free(&s->v);
  vmap_free(&s->of);
  vmap_free(&s->unescaped);
  vmap_free(&s->run_of);
  vec_free(&s->index_runs);
  vmap_free(&s->index_of);
  free(s->calm);
  free(s->exit);
  free(s->writes);
  free(s->written);
  free(s->written_private);
  free(s->size);
  free(s);
  g->snapshots = NULL;
}

bool snapshot_read_in(RevGen *g, LLVMValueRef load, LLVMBasicBlockRef bb) {
  Snapshot *sn = snapshot_of(g, load);
  return sn && in_loop(g, sn->loop, bb);
}

/* Keeps, of each snapshot, the reads some reverse block of its loop needs; drops snapshots left with none. */
void snapshot_prune(RevGen *g) {
  struct Snapshots *s = g->snapshots;
  if (!s) return;
  ValueMap used;
  vmap_init(&used);
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (size_t i = 0; i < g->plan[b].needs.len; i++) {
      Item it = g->plan[b].needs.data[i];
      if (it.kind == NEED_PRIMAL && snapshot_read_in(g, it.value, g->cfg.blocks.data[b])) vmap_put(&used, it.value, (void *)1);
    }
  size_t kept = 0;
  vmap_free(&s->of);
  vmap_init(&s->of);
  for (size_t k = 0; k < s->v.len; k++) {
    Snapshot sn = s->v.data[k];
    size_t n = 0;
    for (size_t i = 0; i < sn.loads.len; i++)
      if (vmap_get(&used, sn.loads.data[i])) sn.loads.data[n++] = sn.loads.data[i];
    sn.loads.len = n;
    if (!n) {
      vec_free(&sn.loads);
      continue;
    }
    for (size_t i = 0; i < n; i++) vmap_put(&s->of, sn.loads.data[i], (void *)(uintptr_t)(kept + 1));
    s->v.data[kept++] = sn;
  }
  s->v.len = kept;
  vmap_free(&used);
}

bool snapshot_exit(RevGen *g, LLVMBasicBlockRef bb) {
  struct Snapshots *s = g->snapshots;
  for (size_t k = 0; s && k < s->v.len; k++)
    if (s->v.data[k].exit == bb) return true;
  return false;
}

bool snapshot_inside(RevGen *g, Loop *l) {
  struct Snapshots *s = g->snapshots;
  for (size_t k = 0; s && k < s->v.len; k++) {
    Snapshot *sn = &s->v.data[k];
    if (sn->loop != l && (in_loop(g, l, sn->exit) || in_loop(g, l, sn->loop->header))) return true;
  }
  return false;
}

/* ---- the forward sweep ---- */

static LLVMValueRef range_slot(RevGen *g, LLVMValueRef init, const char *name) {
  LLVMValueRef slot = LLVMBuildAlloca(g->b, g->i64, name);
  LLVMBuildStore(g->b, init, slot);
  return slot;
}

/* The innermost loop l around a read of a snapshot, when the read's range over a run of l is known as
 * the run starts: l's trip count is (it is counted, entered from a preheader), the read is made in every
 * iteration (so in the first and the last), at an address that moves by the same amount in each. The
 * range is then that of the first and last iterations' addresses, noted once in the preheader instead of
 * widened read by read: a comparison and a select or two per read and iteration, which cost doitgen's
 * product loop about as much as its multiply-adds. */
static Loop *run_loop(RevGen *g, Snapshot *sn, LLVMValueRef load) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(load);
  Loop *l = loop_innermost(g, bb);
  if (!l || !l->exit_iv || !l->preheader || !in_loop(g, sn->loop, l->header)) return NULL;
  if (!cfg_every_iteration(&g->cfg, l->body, l->header, l->latch, bb)) return NULL;
  return loop_linear_exact(g, l, LLVMGetOperand(load, 0)) ? l : NULL;
}

/* ---- gathers through an index array ----
 * A sparse product's p[col[k]] would widen the snapshot's range at every read: two comparisons and two
 * selects per nonzero, a dependency chain through the whole nest. Where the index is read from an array
 * at consecutive elements in every iteration of the gather's innermost loop (indexed_gather), the forward
 * sweep notes instead, as each run of that loop starts, the stretch of the index array it will read
 * (consecutive runs, a CSR matrix's rows, make one), and the runtime finds the smallest and largest index
 * in a stretch when the next run does not continue it and as the snapshot's copy is made
 * (__parad_rt_index_range): the same range, at a fraction of the cost. The index array must hold, when it
 * is scanned, what the gathers read: nothing in the snapshot's loop writes it (loop_keeps, as for the
 * snapshot's own reads), and the copy is made as the loop ends. The gather's base must be the same in the
 * whole run of the snapshot's loop. */
static bool index_run(RevGen *g, Snapshot *sn, LLVMValueRef load, IndexedGather *x) {
  if (!indexed_gather(g, LLVMGetOperand(load, 0), LLVMGetInstructionParent(load), x)) return false;
  if (!x->loop->preheader || !in_loop(g, sn->loop, x->loop->header)) return false;
  if (LLVMIsAInstruction(x->base) && in_loop(g, sn->loop, LLVMGetInstructionParent(x->base))) return false;
  return loop_keeps(g, sn->loop, x->index);
}

static IndexRun *index_run_of(RevGen *g, LLVMValueRef load) {
  struct Snapshots *s = g->snapshots;
  size_t k = (size_t)vmap_get(&s->index_of, load);
  return k ? &s->index_runs.data[k - 1] : NULL;
}

static void widen(RevGen *g, Snapshot *sn, LLVMValueRef lo, LLVMValueRef hi);

/* The range r's gathers read through the index array's elements [lo, hi), into sn's range. */
static void note_index_run(RevGen *g, Snapshot *sn, IndexRun *r, LLVMValueRef lo, LLVMValueRef hi) {
  struct Snapshots *s = g->snapshots;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  unsigned long long index_size = ir_type_size(g->ad->mod, LLVMTypeOf(r->x.index)), size = ir_type_size(g->ad->mod, LLVMTypeOf(r->load));
  LLVMValueRef args[9] = {lo,
                          hi,
                          LLVMConstInt(i32, index_size, 0),
                          LLVMConstInt(i32, r->x.is_signed, 0),
                          LLVMBuildPtrToInt(g->b, aug_value(g, r->x.base), g->i64, ""),
                          LLVMConstInt(g->i64, (unsigned long long)r->x.scale, 1),
                          LLVMConstInt(g->i64, 0, 0),
                          LLVMConstInt(g->i64, size, 0),
                          s->index_out};
  LLVMTypeRef params[9] = {g->i64, g->i64, i32, i32, g->i64, g->i64, g->i64, g->i64, g->ptr_type};
  ir_call_named(g->b, "__parad_rt_index_range", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 9, 0), args, 9);
  LLVMValueRef one = LLVMConstInt(g->i64, 1, 0);
  LLVMValueRef out_hi = LLVMBuildGEP2(g->b, g->i64, s->index_out, &one, 1, "");
  widen(g, sn, LLVMBuildLoad2(g->b, g->i64, s->index_out, ""), LLVMBuildLoad2(g->b, g->i64, out_hi, ""));
}

/* In the preheader of r's loop: the stretch of the index array this run reads, joined to the stretch
 * noted so far where it continues it either way (one comparison per run), else that stretch is noted
 * and this one starts again (the first too: the empty stretch before it notes nothing). */
static void continue_index_run(RevGen *g, Snapshot *sn, IndexRun *r) {
  Loop *l = r->x.loop;
  LLVMValueRef p = r->x.walk, trip = loop_trip(g, l, aug_value), lo, hi;
  LLVMValueRef *first = xcalloc(l->ivs.len, sizeof *first), *last = xcalloc(l->ivs.len, sizeof *last);
  loop_first_and_last(g, l, trip, first, last, aug_value);
  address_span(g, loop_evaluate(g, l, p, first, aug_value), loop_evaluate(g, l, p, last, aug_value), r->x.walk_size, &lo, &hi);
  free(first);
  free(last);
  LLVMValueRef run_lo = LLVMBuildLoad2(g->b, g->i64, r->run_lo, ""), run_hi = LLVMBuildLoad2(g->b, g->i64, r->run_hi, "");
  LLVMValueRef up = LLVMBuildICmp(g->b, LLVMIntEQ, lo, run_hi, ""), down = LLVMBuildICmp(g->b, LLVMIntEQ, hi, run_lo, "");
  LLVMValueRef new_lo = LLVMBuildSelect(g->b, up, run_lo, lo, ""), new_hi = LLVMBuildSelect(g->b, down, run_hi, hi, "");
  LLVMBasicBlockRef broken, joined, join;
  rev_diamond(g, LLVMBuildNot(g->b, LLVMBuildOr(g->b, up, down, ""), ""), &broken, &joined, &join);
  LLVMPositionBuilderAtEnd(g->b, broken);
  note_index_run(g, sn, r, run_lo, run_hi);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, joined);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
  LLVMBuildStore(g->b, new_lo, r->run_lo);
  LLVMBuildStore(g->b, new_hi, r->run_hi);
}

void snapshot_aug_entry(RevGen *g) {
  struct Snapshots *s = g->snapshots;
  for (size_t k = 0; s && k < s->v.len; k++) {
    Snapshot *sn = &s->v.data[k];
    sn->lo = range_slot(g, LLVMConstAllOnes(g->i64), "snap.lo");
    sn->hi = range_slot(g, LLVMConstInt(g->i64, 0, 0), "snap.hi");
    for (size_t i = 0; i < sn->loads.len; i++) {
      LLVMValueRef load = sn->loads.data[i];
      Loop *l = run_loop(g, sn, load);
      IndexRun r = {.load = load};
      bool indexed = !l && index_run(g, sn, load, &r.x);
      if (l) vmap_put(&s->run_of, load, l);
      if (indexed) {
        if (!s->index_out) s->index_out = LLVMBuildAlloca(g->b, LLVMArrayType2(g->i64, 2), "index.out");
        r.run_lo = range_slot(g, LLVMConstInt(g->i64, 0, 0), "index.lo");
        r.run_hi = range_slot(g, LLVMConstInt(g->i64, 0, 0), "index.hi");
        vec_push(&s->index_runs, r);
        vmap_put(&s->index_of, load, (void *)(uintptr_t)s->index_runs.len);
      }
      if (getenv("PARAD_PLAN")) {
        char *v = LLVMPrintValueToString(load);
        fprintf(stderr, "snapshot in %s: %.60s: range %s\n", LLVMGetValueName(g->orig), v,
                l ? "noted per run of its loop" : indexed ? "noted per run of its index array" : "widened read by read");
        LLVMDisposeMessage(v);
      }
    }
  }
}

static void widen(RevGen *g, Snapshot *sn, LLVMValueRef lo, LLVMValueRef hi) {
  rev_widen(g, sn->lo, lo, "llvm.umin");
  rev_widen(g, sn->hi, hi, "llvm.umax");
}

/* After bb: the ranges of bb's reads, and those of the runs of loops bb is the preheader of. */
void snapshot_aug_after_block(RevGen *g, LLVMBasicBlockRef bb) {
  struct Snapshots *s = g->snapshots;
  for (size_t k = 0; s && k < s->v.len; k++) {
    Snapshot *sn = &s->v.data[k];
    for (size_t i = 0; i < sn->loads.len; i++) {
      LLVMValueRef load = sn->loads.data[i], p = LLVMGetOperand(load, 0);
      Loop *l = vmap_get(&s->run_of, load);
      unsigned long long size = ir_type_size(g->ad->mod, LLVMTypeOf(load));
      if (l && l->preheader == bb) {
        LLVMValueRef trip = loop_trip(g, l, aug_value), lo, hi;
        LLVMValueRef *first = xcalloc(l->ivs.len, sizeof *first), *last = xcalloc(l->ivs.len, sizeof *last);
        loop_first_and_last(g, l, trip, first, last, aug_value);
        address_span(g, loop_evaluate(g, l, p, first, aug_value), loop_evaluate(g, l, p, last, aug_value), (unsigned)size, &lo, &hi);
        widen(g, sn, lo, hi);
        free(first);
        free(last);
      }
      IndexRun *r = index_run_of(g, load);
      if (r && r->x.loop->preheader == bb) continue_index_run(g, sn, r);
      if (l || r || LLVMGetInstructionParent(load) != bb) continue;
      LLVMValueRef at = LLVMBuildPtrToInt(g->b, aug_value(g, p), g->i64, "");
      widen(g, sn, at, LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, size, 0), ""));
    }
  }
}

/* As a run ends (at the start of the block it leaves to): the range it read onto the tape, then where
 * it was and its size; the range starts empty again for the next run. */
static void push(RevGen *g, Snapshot *sn) {
  struct Snapshots *s = g->snapshots;
  for (size_t i = 0; i < s->index_runs.len; i++) { /* the runs not noted yet */
    IndexRun *r = &s->index_runs.data[i];
    if (snapshot_of(g, r->load) != sn) continue;
    note_index_run(g, sn, r, LLVMBuildLoad2(g->b, g->i64, r->run_lo, ""), LLVMBuildLoad2(g->b, g->i64, r->run_hi, ""));
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, 0, 0), r->run_lo);
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, 0, 0), r->run_hi);
  }
  LLVMValueRef lo = LLVMBuildLoad2(g->b, g->i64, sn->lo, "snap.lo"), hi = LLVMBuildLoad2(g->b, g->i64, sn->hi, "snap.hi");
  LLVMValueRef any = LLVMBuildICmp(g->b, LLVMIntULT, lo, hi, "");
  LLVMValueRef len = LLVMBuildSelect(g->b, any, LLVMBuildSub(g->b, hi, lo, ""), LLVMConstInt(g->i64, 0, 0), "snap.len");
  LLVMValueRef size = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, len, LLVMConstInt(g->i64, 7, 0), ""), LLVMConstInt(g->i64, ~7ull, 0), "");
  LLVMValueRef copy = tape_reserve_value(g, size);
  /* from the object, not an integer made a pointer: forward mode over this sweep copies its tangents */
  LLVMValueRef root = aug_value(g, sn->root);
  LLVMValueRef offset = LLVMBuildSelect(g->b, any, LLVMBuildSub(g->b, lo, LLVMBuildPtrToInt(g->b, root, g->i64, ""), ""),
                                        LLVMConstInt(g->i64, 0, 0), "");
  LLVMBuildMemCpy(g->b, copy, 8, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), root, &offset, 1, ""), 1, len);
  LLVMValueRef head = tape_reserve(g, 16);
  tape_store(g, head, 0, lo);
  tape_store(g, head, 8, size);
  LLVMBuildStore(g->b, LLVMConstAllOnes(g->i64), sn->lo);
  LLVMBuildStore(g->b, LLVMConstInt(g->i64, 0, 0), sn->hi);
}

void snapshot_aug_at(RevGen *g, LLVMBasicBlockRef bb) {
  struct Snapshots *s = g->snapshots;
  if (!s || !snapshot_exit(g, bb)) return;
  for (size_t i = g->loops.len; i-- > 0;) /* the reverse takes them back loop by loop (rev_function.c edge) */
    for (size_t k = 0; k < s->v.len; k++) {
      Snapshot *sn = &s->v.data[k];
      if (sn->exit == bb && sn->loop == &g->loops.data[i]) push(g, sn);
    }
}

/* ---- the reverse sweep ---- */

void snapshot_rev_entry(RevGen *g) {
  struct Snapshots *s = g->snapshots;
  for (size_t k = 0; s && k < s->v.len; k++) {
    s->v.data[k].copy = LLVMBuildAlloca(g->b, g->ptr_type, "snap.copy");
    LLVMBuildStore(g->b, LLVMConstNull(g->ptr_type), s->v.data[k].copy);
    s->v.data[k].lo = range_slot(g, LLVMConstInt(g->i64, 0, 0), "snap.lo");
  }
}

/* Entering l's reverse from where it exits: its snapshots taken back, the last pushed first. */
void snapshot_rev_enter_loop(RevGen *g, Loop *l) {
  struct Snapshots *s = g->snapshots;
  if (!s || g->phase == PLANNING) return;
  for (size_t k = s->v.len; k-- > 0;) {
    Snapshot *sn = &s->v.data[k];
    if (sn->loop != l) continue;
    LLVMValueRef head = tape_release(g, 16);
    LLVMBuildStore(g->b, tape_load(g, head, 0, g->i64), sn->lo);
    LLVMBuildStore(g->b, tape_release_value(g, tape_load(g, head, 8, g->i64)), sn->copy);
  }
}

/* The value load read at p (its address in the reverse sweep), from the copy: addressed from the copy's
 * record, so that forward mode over this sweep finds its tangent in the tape's twin; a gather's base
 * moved into the copy, then the same indices, so that a loop holds one base. */
LLVMValueRef snapshot_load(RevGen *g, LLVMValueRef load, LLVMValueRef p) {
  Snapshot *sn = snapshot_of(g, load);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
  LLVMValueRef copy = LLVMBuildLoad2(g->b, g->ptr_type, sn->copy, ""), lo = LLVMBuildLoad2(g->b, g->i64, sn->lo, "");
  unsigned n = LLVMIsAGetElementPtrInst(p) ? (unsigned)LLVMGetNumOperands(p) : 0;
  LLVMValueRef from = n >= 2 && n <= 4 ? LLVMGetOperand(p, 0) : p, at;
  LLVMValueRef offset = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, from, g->i64, ""), lo, "");
  at = LLVMBuildGEP2(g->b, i8, copy, &offset, 1, "snap");
  if (n >= 2 && n <= 4) {
    LLVMValueRef idx[3];
    for (unsigned i = 1; i < n; i++) idx[i - 1] = LLVMGetOperand(p, i);
    at = LLVMBuildGEP2(g->b, LLVMGetGEPSourceElementType(p), at, idx, n - 1, "snap");
  }
  LLVMValueRef v = LLVMBuildLoad2(g->b, LLVMTypeOf(load), at, "");
  LLVMSetAlignment(v, sn->align);
  return v;
}
