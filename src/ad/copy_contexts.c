#include "ad/copy_contexts.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/calls.h"
#include "analysis/memtype.h"
#include "ir/ir.h"

enum { MAX_INSTRUCTIONS = 400, MAX_SITES = 64 }; /* helpers, not whole programs: copies cost code */

/* A word moved: an integer store of what an integer load read (a swap through a uint64_t, which the
 * optimiser makes of memcpy's of 8 bytes). */
static bool is_word_move(LLVMValueRef i) {
  if (!LLVMIsAStoreInst(i)) return false;
  LLVMValueRef v = LLVMGetOperand(i, 0);
  return LLVMIsALoadInst(v) && LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(LLVMTypeOf(v)) >= 32;
}

/* What a copy or a word move moves; unknown for words whose ends disagree or say nothing. */
static DataKind moved_kind(LLVMValueRef i) {
  if (!is_word_move(i)) return memtype_of_copy(i);
  DataKind to = memtype_of_data(LLVMGetOperand(i, 1)), from = memtype_of_data(LLVMGetOperand(LLVMGetOperand(i, 0), 0));
  if (to == DATA_UNKNOWN || to == DATA_MIXED) return from == DATA_MIXED ? DATA_UNKNOWN : from;
  return from == DATA_UNKNOWN || from == to ? to : DATA_UNKNOWN;
}

static bool is_copy(LLVMValueRef i) { return (ir_is_call(i) && call_classify(i, NULL) == CALL_MEMCPY) || is_word_move(i); }

/* fn's copies of memory whose kind is not known; false when fn is too large to be worth copying. */
static bool unknown_copies(LLVMValueRef fn, ValueList *out) {
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i), n++)
      if (is_copy(i) && moved_kind(i) == DATA_UNKNOWN) vec_push(out, i);
  return n <= MAX_INSTRUCTIONS;
}

/* The calls of fn from the functions the requests reach, when fn is only ever called directly (not
 * passed on, not recursive: its copies would call it back). */
static bool reached_calls(LLVMValueRef fn, const ValueMap *reached, ValueList *sites) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!ir_is_call(call) || LLVMGetCalledValue(call) != fn) return false;
    for (unsigned a = 0, n = ir_num_call_args(call); a < n; a++)
      if (LLVMGetArgOperand(call, a) == fn) return false;
    LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
    if (caller == fn) return false;
    if (vmap_has(reached, caller)) vec_push(sites, call);
  }
  return sites->len > 0 && sites->len <= MAX_SITES;
}

static void call_instead(LLVMValueRef call, LLVMValueRef fn) {
  LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, fn);
}

/* Each reached call given a copy of fn of its own, and the kinds of the unknown copies in it; then calls
 * whose copies agree share one. Undone if some copy stays unknown for one caller. */
static bool split(LLVMValueRef fn, const ValueList *copies, const ValueList *sites) {
  size_t n = sites->len;
  LLVMValueRef *clone = xcalloc(n, sizeof *clone);
  char **kinds = xcalloc(n, sizeof *kinds);
  bool known = true;
  for (size_t s = 0; s < n; s++) {
    char *name = xasprintf("%s.kinds%zu", LLVMGetValueName(fn), s);
    ValueMap vm;
    vmap_init(&vm);
    clone[s] = ir_clone_function(fn, name, &vm);
    free(name);
    call_instead(sites->data[s], clone[s]);
    kinds[s] = xcalloc(copies->len + 1, 1);
    for (size_t c = 0; c < copies->len; c++) {
      DataKind k = moved_kind(vmap_get(&vm, copies->data[c]));
      known &= k != DATA_UNKNOWN;
      kinds[s][c] = (char)('a' + k);
    }
    vmap_free(&vm);
  }
  for (size_t s = 0; s < n; s++) {
    size_t same = s;
    for (size_t t = 0; t < s && same == s; t++)
      if (clone[t] && !strcmp(kinds[t], kinds[s])) same = t;
    if (known && same == s) continue;
    call_instead(sites->data[s], known ? clone[same] : fn);
    LLVMDeleteFunction(clone[s]);
    clone[s] = NULL;
  }
  for (size_t s = 0; s < n; s++) free(kinds[s]);
  free(kinds);
  free(clone);
  return known;
}

static unsigned instruction_count(LLVMValueRef fn) {
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n++;
  return n;
}

/* Where fn's copies stay unknown for each of its calls because its callers only pass on what their own
 * callers give (a generic sort calling its swap at -Os): each such caller is copied once per call of its
 * own first, and then fn once per call from those copies. Undone if some copy stays unknown. */
static bool split_through_callers(LLVMValueRef fn, const ValueList *copies, const ValueList *sites, ValueMap *reached) {
  ValueList callers = {0}, outer = {0}, originals = {0}, clones = {0}, inner = {0};
  bool ok = true;
  for (size_t s = 0; s < sites->len && ok; s++) {
    LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(sites->data[s]));
    if (ir_list_has(&callers, caller)) continue;
    vec_push(&callers, caller);
    ValueList calls = {0};
    ok = instruction_count(caller) <= MAX_INSTRUCTIONS && reached_calls(caller, reached, &calls) &&
         outer.len + calls.len <= MAX_SITES;
    for (size_t c = 0; c < calls.len && ok; c++) {
      char *name = xasprintf("%s.callers%zu", LLVMGetValueName(caller), outer.len);
      ValueMap vm;
      vmap_init(&vm);
      LLVMValueRef clone = ir_clone_function(caller, name, &vm);
      free(name);
      for (size_t t = 0; t < sites->len; t++)
        if (LLVMGetBasicBlockParent(LLVMGetInstructionParent(sites->data[t])) == caller) vec_push(&inner, vmap_get(&vm, sites->data[t]));
      vmap_free(&vm);
      call_instead(calls.data[c], clone);
      vec_push(&outer, calls.data[c]);
      vec_push(&originals, caller);
      vec_push(&clones, clone);
    }
    vec_free(&calls);
  }
  ok = ok && inner.len <= MAX_SITES && split(fn, copies, &inner);
  for (size_t c = 0; c < clones.len; c++) {
    if (ok) {
      vmap_put(reached, clones.data[c], NULL);
    } else {
      call_instead(outer.data[c], originals.data[c]);
      LLVMDeleteFunction(clones.data[c]);
    }
  }
  vec_free(&callers);
  vec_free(&outer);
  vec_free(&originals);
  vec_free(&clones);
  vec_free(&inner);
  return ok;
}

unsigned copy_contexts_split(LLVMModuleRef m, ValueMap *reached) {
  ValueList helpers = {0};
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (vmap_has(reached, fn) && LLVMCountBasicBlocks(fn) && !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))
      vec_push(&helpers, fn);
  unsigned done = 0;
  for (size_t h = 0; h < helpers.len; h++) {
    LLVMValueRef fn = helpers.data[h];
    ValueList copies = {0}, sites = {0};
    if (unknown_copies(fn, &copies) && copies.len && reached_calls(fn, reached, &sites))
      done += split(fn, &copies, &sites) || split_through_callers(fn, &copies, &sites, reached);
    vec_free(&copies);
    vec_free(&sites);
  }
  vec_free(&helpers);
  return done;
}
