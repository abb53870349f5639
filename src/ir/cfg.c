#include "ir/cfg.h"

#include <stdlib.h>

typedef struct {
  LLVMBasicBlockRef bb;
  unsigned next_succ;
} Frame;

void cfg_reverse_post_order(LLVMValueRef fn, BlockList *out) {
  out->len = 0;
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  if (!entry) return;
  /* Iterative depth-first search: functions with long chains of blocks must not overflow the stack. */
  ValueMap seen;
  vmap_init(&seen);
  VEC(Frame) stack = {0};
  BlockList post = {0};
  vmap_put(&seen, entry, entry);
  vec_push(&stack, ((Frame){entry, 0}));
  while (stack.len) {
    Frame *f = &stack.data[stack.len - 1];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(f->bb);
    unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
    if (f->next_succ < n) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, f->next_succ++);
      if (!vmap_has(&seen, s)) {
        vmap_put(&seen, s, s);
        vec_push(&stack, ((Frame){s, 0}));
      }
    } else {
      vec_push(&post, f->bb);
      stack.len--;
    }
  }
  for (size_t i = post.len; i-- > 0;) vec_push(out, post.data[i]);
  vec_free(&post);
  vec_free(&stack);
  vmap_free(&seen);
}

int cfg_index(const Cfg *cfg, LLVMBasicBlockRef bb) {
  return (int)(size_t)vmap_get(&cfg->index, LLVMBasicBlockAsValue(bb)) - 1;
}

bool cfg_runs_once(const Cfg *cfg, LLVMBasicBlockRef bb) {
  int i = cfg_index(cfg, bb);
  return i >= 0 && !cfg->cyclic[i];
}

/* Tarjan's strongly connected components, iteratively: a block is on a cycle when its component has
 * more than one block, or it branches to itself. */
static void find_cycles(Cfg *cfg) {
  size_t n = cfg->blocks.len;
  int *index = malloc(n * sizeof *index), *low = malloc(n * sizeof *low);
  bool *on_stack = calloc(n, 1);
  VEC(int) stack = {0};
  VEC(Frame) work = {0};
  int counter = 0;
  for (size_t i = 0; i < n; i++) index[i] = -1;
  for (size_t root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    vec_push(&work, ((Frame){cfg->blocks.data[root], 0}));
    while (work.len) {
      Frame *f = &work.data[work.len - 1];
      int v = cfg_index(cfg, f->bb);
      if (f->next_succ == 0 && index[v] < 0) {
        index[v] = low[v] = counter++;
        vec_push(&stack, v);
        on_stack[v] = true;
      }
      LLVMValueRef term = LLVMGetBasicBlockTerminator(f->bb);
      unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
      if (f->next_succ < ns) {
        LLVMBasicBlockRef s = LLVMGetSuccessor(term, f->next_succ++);
        int w = cfg_index(cfg, s);
        if (w < 0) continue;
        if (w == v) cfg->cyclic[v] = true;
        if (index[w] < 0)
          vec_push(&work, ((Frame){s, 0}));
        else if (on_stack[w] && index[w] < low[v])
          low[v] = index[w];
        continue;
      }
      work.len--;
      if (work.len) {
        int parent = cfg_index(cfg, work.data[work.len - 1].bb);
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] == index[v]) { /* v roots a component: pop it */
        size_t first = stack.len;
        do first--; while (stack.data[first] != v);
        bool cycle = stack.len - first > 1;
        for (size_t k = first; k < stack.len; k++) {
          on_stack[stack.data[k]] = false;
          if (cycle) cfg->cyclic[stack.data[k]] = true;
        }
        stack.len = first;
      }
    }
  }
  free(index);
  free(low);
  free(on_stack);
  vec_free(&stack);
  vec_free(&work);
}

/* Cooper, Harvey and Kennedy's iteration over the reverse post-order: a block's immediate dominator is
 * where the dominator-tree paths of its processed predecessors meet. */
static void find_dominators(Cfg *cfg) {
  size_t n = cfg->blocks.len;
  int *idom = cfg->idom;
  for (size_t i = 0; i < n; i++) idom[i] = -2; /* not yet known */
  if (n) idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 1; b < n; b++) {
      int meet = -2;
      BlockList *preds = &cfg->preds[b];
      for (size_t k = 0; k < preds->len; k++) {
        int p = cfg_index(cfg, preds->data[k]);
        if (idom[p] == -2) continue;
        if (meet == -2) {
          meet = p;
          continue;
        }
        int x = p, y = meet;
        while (x != y) {
          while (x > y) x = idom[x];
          while (y > x) y = idom[y];
        }
        meet = x;
      }
      if (meet != idom[b]) idom[b] = meet, changed = true;
    }
  }
  if (n) idom[0] = -1;
}

bool cfg_dominates(const Cfg *cfg, LLVMBasicBlockRef a, LLVMBasicBlockRef b) {
  int x = cfg_index(cfg, a), y = cfg_index(cfg, b);
  if (x < 0 || y < 0) return false;
  while (y > x) y = cfg->idom[y];
  return x == y;
}

void cfg_build(LLVMValueRef fn, Cfg *cfg) {
  BlockList rpo = {0};
  cfg_reverse_post_order(fn, &rpo);
  cfg->blocks = rpo;
  vmap_init(&cfg->index);
  for (size_t i = 0; i < rpo.len; i++) vmap_put(&cfg->index, LLVMBasicBlockAsValue(rpo.data[i]), (void *)(i + 1));
  cfg->preds = calloc(rpo.len + 1, sizeof *cfg->preds);
  cfg->cyclic = calloc(rpo.len + 1, sizeof *cfg->cyclic);
  for (size_t i = 0; i < rpo.len; i++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(rpo.data[i]);
    for (unsigned s = 0, n = term ? LLVMGetNumSuccessors(term) : 0; s < n; s++) {
      int j = cfg_index(cfg, LLVMGetSuccessor(term, s));
      if (j < 0) continue;
      BlockList *p = &cfg->preds[j];
      if (!p->len || p->data[p->len - 1] != rpo.data[i]) vec_push(p, rpo.data[i]); /* a switch may branch twice */
    }
  }
  find_cycles(cfg);
  cfg->idom = calloc(rpo.len + 1, sizeof *cfg->idom);
  find_dominators(cfg);
}

void cfg_free(Cfg *cfg) {
  for (size_t i = 0; i < cfg->blocks.len; i++) vec_free(&cfg->preds[i]);
  free(cfg->preds);
  free(cfg->cyclic);
  free(cfg->idom);
  vmap_free(&cfg->index);
  vec_free(&cfg->blocks);
}

bool cfg_in_loop(const Cfg *cfg, const CfgLoop *l, LLVMBasicBlockRef bb) {
  int i = cfg_index(cfg, bb);
  return i >= 0 && l->body[i];
}

/* The natural loop of the back edges into header: the blocks that reach a latch without passing the
 * header. False when a block of it other than the header is entered from outside (irreducible). */
static bool loop_body(const Cfg *cfg, LLVMBasicBlockRef header, BlockList *latches, bool *body) {
  BlockList work = {0};
  body[cfg_index(cfg, header)] = true;
  for (size_t i = 0; i < latches->len; i++)
    if (!body[cfg_index(cfg, latches->data[i])]) {
      body[cfg_index(cfg, latches->data[i])] = true;
      vec_push(&work, latches->data[i]);
    }
  while (work.len) {
    LLVMBasicBlockRef b = work.data[--work.len];
    BlockList *preds = &cfg->preds[cfg_index(cfg, b)];
    for (size_t k = 0; k < preds->len; k++) {
      int p = cfg_index(cfg, preds->data[k]);
      if (!body[p]) {
        body[p] = true;
        vec_push(&work, preds->data[k]);
      }
    }
  }
  vec_free(&work);
  for (size_t b = 0; b < cfg->blocks.len; b++) {
    if (!body[b] || cfg->blocks.data[b] == header) continue;
    BlockList *preds = &cfg->preds[b];
    for (size_t k = 0; k < preds->len; k++)
      if (!body[cfg_index(cfg, preds->data[k])]) return false;
  }
  return true;
}

/* Back edges: in the reverse post-order of one depth-first search, an edge that does not lead forward
 * leads to a block still on the search stack when it was taken (an ancestor, or the block itself). */
void cfg_natural_loops(const Cfg *cfg, CfgLoopList *out) {
  size_t n = cfg->blocks.len;
  BlockList *latches = calloc(n + 1, sizeof *latches);
  for (size_t i = 0; i < n; i++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(cfg->blocks.data[i]);
    for (unsigned s = 0, k = term ? LLVMGetNumSuccessors(term) : 0; s < k; s++) {
      int j = cfg_index(cfg, LLVMGetSuccessor(term, s));
      if (j >= 0 && (size_t)j <= i && (!latches[j].len || latches[j].data[latches[j].len - 1] != cfg->blocks.data[i]))
        vec_push(&latches[j], cfg->blocks.data[i]);
    }
  }
  for (size_t h = 0; h < n; h++) {
    if (!latches[h].len) continue;
    CfgLoop l = {.header = cfg->blocks.data[h], .body = calloc(n + 1, 1)};
    if (!loop_body(cfg, l.header, &latches[h], l.body)) {
      free(l.body);
      vec_free(&latches[h]);
      continue;
    }
    BlockList *preds = &cfg->preds[h];
    if (preds->len == 2) {
      bool in0 = cfg_in_loop(cfg, &l, preds->data[0]), in1 = cfg_in_loop(cfg, &l, preds->data[1]);
      if (in0 != in1) {
        l.latch = in0 ? preds->data[0] : preds->data[1];
        l.preheader = in0 ? preds->data[1] : preds->data[0];
      }
    }
    vec_push(out, l);
    vec_free(&latches[h]);
  }
  free(latches);
}

bool cfg_every_iteration(const Cfg *cfg, const bool *body, LLVMBasicBlockRef header, LLVMBasicBlockRef latch,
                         LLVMBasicBlockRef at) {
  if (at == header || at == latch) return true;
  size_t n = cfg->blocks.len;
  bool *seen = xcalloc(n + 1, 1);
  BlockList work = {0};
  vec_push(&work, header);
  seen[cfg_index(cfg, header)] = true;
  bool reached = false;
  while (work.len && !reached) {
    LLVMBasicBlockRef b = work.data[--work.len];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    for (unsigned i = 0, k = term ? LLVMGetNumSuccessors(term) : 0; i < k; i++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(term, i);
      int si = cfg_index(cfg, s);
      if (si < 0 || s == at || s == header || !body[si] || seen[si]) continue;
      if (s == latch) reached = true;
      seen[si] = true;
      vec_push(&work, s);
    }
  }
  vec_free(&work);
  free(seen);
  return !reached;
}

LLVMBasicBlockRef cfg_split_before(LLVMContextRef c, LLVMValueRef at) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at), head = LLVMInsertBasicBlockInContext(c, bb, "");
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p; p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
    for (unsigned s = 0, n = t && p != head ? LLVMGetNumSuccessors(t) : 0; s < n; s++)
      if (LLVMGetSuccessor(t, s) == bb) LLVMSetSuccessor(t, s, head);
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, head);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i != at; i = next) {
    next = LLVMGetNextInstruction(i);
    size_t len;
    const char *name = LLVMGetValueName2(i, &len);
    char *keep = xasprintf("%.*s", (int)len, name);
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilderWithName(b, i, keep);
    free(keep);
  }
  LLVMDisposeBuilder(b);
  return head;
}

LLVMValueRef cfg_phi_reroute(LLVMValueRef phi, LLVMBasicBlockRef from, LLVMBasicBlockRef to, LLVMValueRef value) {
  unsigned n = LLVMCountIncoming(phi), kept = 0;
  bool changed = false;
  LLVMValueRef *values = xcalloc(n + 1, sizeof *values);
  LLVMBasicBlockRef *blocks = xcalloc(n + 1, sizeof *blocks);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, i);
    LLVMBasicBlockRef bb = LLVMGetIncomingBlock(phi, i);
    if (bb == from) {
      changed = true;
      if (!to) continue;
      bb = to, v = value ? value : v;
    }
    values[kept] = v, blocks[kept++] = bb;
  }
  if (changed) { /* the C API cannot change an entry's block: a new phi */
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(phi)));
    LLVMPositionBuilderBefore(b, phi);
    LLVMValueRef now = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
    LLVMAddIncoming(now, values, blocks, kept);
    LLVMReplaceAllUsesWith(phi, now);
    LLVMInstructionEraseFromParent(phi);
    LLVMDisposeBuilder(b);
    phi = now;
  }
  free(values);
  free(blocks);
  return phi;
}

void cfg_drop_unreachable(LLVMValueRef fn) {
  Cfg cfg;
  cfg_build(fn, &cfg);
  BlockList dead = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    if (cfg_index(&cfg, bb) < 0) vec_push(&dead, bb);
  cfg_free(&cfg);
  for (size_t d = 0; d < dead.len; d++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(dead.data[d]);
    for (unsigned s = 0, n = t ? LLVMGetNumSuccessors(t) : 0; s < n; s++)
      for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetSuccessor(t, s)), next; i && LLVMIsAPHINode(i); i = next) {
        next = LLVMGetNextInstruction(i);
        cfg_phi_reroute(i, dead.data[d], NULL, NULL);
      }
  }
  for (size_t d = 0; d < dead.len; d++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(dead.data[d]); i; i = LLVMGetNextInstruction(i))
      if (LLVMGetFirstUse(i)) LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
  for (size_t d = 0; d < dead.len; d++) LLVMDeleteBasicBlock(dead.data[d]);
  vec_free(&dead);
}

bool cfg_induction(const Cfg *cfg, const bool *body, LLVMValueRef phi, LLVMBasicBlockRef preheader, LLVMBasicBlockRef latch,
                   LLVMValueRef *start, LLVMValueRef *step, LLVMValueRef *next) {
  if (!LLVMIsAPHINode(phi) || LLVMGetTypeKind(LLVMTypeOf(phi)) != LLVMIntegerTypeKind || LLVMCountIncoming(phi) != 2)
    return false;
  LLVMValueRef init = NULL, n = NULL;
  for (unsigned i = 0; i < 2; i++) {
    if (LLVMGetIncomingBlock(phi, i) == preheader) init = LLVMGetIncomingValue(phi, i);
    if (LLVMGetIncomingBlock(phi, i) == latch) n = LLVMGetIncomingValue(phi, i);
  }
  if (!init || !n || !LLVMIsAInstruction(n) || LLVMGetInstructionOpcode(n) != LLVMAdd) return false;
  if (LLVMIsAInstruction(init)) {
    int k = cfg_index(cfg, LLVMGetInstructionParent(init));
    if (k < 0 || body[k]) return false;
  }
  LLVMValueRef a = LLVMGetOperand(n, 0), b = LLVMGetOperand(n, 1);
  LLVMValueRef c = a == phi ? b : b == phi ? a : NULL;
  if (!c || !LLVMIsAConstantInt(c) || LLVMConstIntGetZExtValue(c) == 0) return false;
  *start = init, *step = c, *next = n;
  return true;
}
