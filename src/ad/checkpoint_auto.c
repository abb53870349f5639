/* Loops checkpointed without a marker, when a tape budget is set.
 *
 * Reverse mode of a function F whose top-level loops are time loops (the counter addresses no memory: the
 * iterations evolve a state) that do real work (each iteration runs an inner loop or calls a function of
 * the program) gets a twin: F.budgeted, a copy of F with those loops marked, and so
 * outlined and checkpointed as the user's marked loops are. The gradient's call site becomes a call of a
 * switch that runs the twin's gradient when a budget is set (parad_set_tape_limit, PARAD_TAPE_LIMIT) and
 * F's otherwise: without a budget nothing changes but that test, and the program's own F is untouched.
 * Under a budget the plain gradient is still taken where the site's plain gradient, the last time it ran,
 * held at most half the budget: the loops checkpointed are those whose tape would not fit.
 * Both requests stay at the user's call site, with the arguments as the program passed them there (what
 * the analyses see of them, constant memory say, is what they saw before).
 *
 * The twin must never cost the user a compilation that would have succeeded without it: every part of
 * it (the outlining, the steps' notes, the derivatives its loops and their runners ask for) is only tried,
 * its errors kept apart; where any part is refused, the whole twin is (the family's root, F.budgeted,
 * carries AUTO_REFUSED), and its switches are made to choose F always. */
#include "ad/checkpoint_auto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint_internal.h"
#include "ad/request.h"
#include "analysis/calls.h"
#include "ir/cfg.h"
#include "ir/diag.h"
#include "mpi/mpi.h"
#include "omp/omp.h"

#define AUTO_OF "parad-checkpoint-auto"               /* a function of a twin's family: the twin's name */
#define AUTO_REFUSED "parad-checkpoint-auto-refused" /* on the twin: a part of its family was refused */

static void set_attr(LLVMValueRef fn, const char *key, const char *value) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(c, key, (unsigned)strlen(key), value, (unsigned)strlen(value)));
}

static const char *get_attr(LLVMValueRef fn, const char *key) {
  if (!fn || !LLVMIsAFunction(fn)) return NULL;
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
  unsigned len;
  return a ? LLVMGetStringAttributeValue(a, &len) : NULL;
}

const char *checkpoint_auto_family(LLVMValueRef fn) { return get_attr(fn, AUTO_OF); }

void checkpoint_auto_join(LLVMValueRef fn, const char *family) {
  if (family) set_attr(fn, AUTO_OF, family);
}

void checkpoint_auto_refuse(LLVMModuleRef m, const char *family, const char *why) {
  LLVMValueRef twin = family ? LLVMGetNamedFunction(m, family) : NULL;
  if (!twin || get_attr(twin, AUTO_REFUSED)) return;
  set_attr(twin, AUTO_REFUSED, "");
  if (getenv("PARAD_AUTO_WHY")) /* a compiler's debugging aid, as PARAD_PLAN */
    fprintf(stderr, "parad-cc: %s: no loop checkpointed without a marker under a budget, because:\n%s", family,
            why && *why ? why : "(no reason given)\n");
}

bool checkpoint_auto_refused(LLVMModuleRef m, const char *family) {
  return family && get_attr(LLVMGetNamedFunction(m, family), AUTO_REFUSED) != NULL;
}

/* ---- which functions get a twin ---- */

static bool marker_or_parallel(LLVMValueRef call, CallKind k) {
  return !strcmp(ir_called_name(call), MARKER) || k == CALL_MPI || k == CALL_OMP;
}

/* Whether loop l of cfg can move into a function: no C++ exception edges (an invoke's landing pad may lie
 * outside it). */
static bool movable(const Cfg *cfg, const CfgLoop *l) {
  for (size_t b = 0; b < cfg->blocks.len; b++)
    for (LLVMValueRef i = l->body[b] ? LLVMGetFirstInstruction(cfg->blocks.data[b]) : NULL; i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsAInvokeInst(i) || LLVMIsALandingPadInst(i) || LLVMIsAResumeInst(i) || LLVMIsACallBrInst(i))
        return false;
  return true;
}

/* Whether loop l of cfg does work an iteration: an inner loop, or a call of a function with a body. */
static bool does_work(const Cfg *cfg, const CfgLoop *l, const CfgLoopList *all) {
  for (size_t k = 0; k < all->len; k++)
    if (&all->data[k] != l && all->data[k].header != l->header && cfg_in_loop(cfg, l, all->data[k].header)) return true;
  for (size_t b = 0; b < cfg->blocks.len; b++) {
    if (!l->body[b]) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef f = ir_is_call(i) ? ir_called_function(i) : NULL;
      if (f && !LLVMIsDeclaration(f)) return true;
    }
  }
  return false;
}

/* Whether v, a value computed from a loop's counter, takes part in an address (an index, or stored or
 * passed where it may become one). A float made of it (a time `t = s * h` passed to the step) is none. */
static bool reaches_address(LLVMValueRef v, LLVMValueRef counter, int depth) {
  if (depth > 8) return true;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAICmpInst(user) || LLVMIsAFCmpInst(user) || ir_is_debug_intrinsic(user)) continue;
    if (LLVMIsASIToFPInst(user) || LLVMIsAUIToFPInst(user)) continue;
    if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 0) == v && LLVMGetOperand(user, 1) == counter) continue; /* its increment */
      return true;
    }
    if (LLVMIsAGetElementPtrInst(user) || ir_is_call(user) || LLVMIsAIntToPtrInst(user)) return true;
    if (reaches_address(user, counter, depth + 1)) return true;
  }
  return false;
}

/* Whether loop l is a time loop: the slots its header compares to leave (its counters) address no memory
 * in it. A sweep over an array (a factorisation's columns, a solve's rows) is left alone: its steps are
 * not a state evolving, and checkpointing them would copy the arrays they read for nothing. */
static bool counts_time(const Cfg *cfg, const CfgLoop *l) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(l->header);
  if (!t || !LLVMIsABranchInst(t) || !LLVMIsConditional(t) || !LLVMIsAICmpInst(LLVMGetCondition(t))) return false;
  LLVMValueRef cmp = LLVMGetCondition(t);
  int counters = 0;
  for (unsigned o = 0; o < 2; o++) {
    LLVMValueRef x = LLVMGetOperand(cmp, o);
    while (LLVMIsASExtInst(x) || LLVMIsAZExtInst(x) || LLVMIsATruncInst(x)) x = LLVMGetOperand(x, 0);
    if (!LLVMIsALoadInst(x) || !LLVMIsAAllocaInst(LLVMGetOperand(x, 0))) continue;
    LLVMValueRef slot = LLVMGetOperand(x, 0);
    counters++;
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef load = LLVMGetUser(u);
      int at = LLVMIsALoadInst(load) ? cfg_index(cfg, LLVMGetInstructionParent(load)) : -1;
      if (at >= 0 && l->body[at] && reaches_address(load, slot, 0)) return false;
    }
  }
  return counters > 0;
}

/* Marks fn's top-level time loops that do work (a marker at the top of each header); how many. */
static int mark_loops(Ck *ck, LLVMValueRef fn) {
  Cfg cfg;
  cfg_build(fn, &cfg);
  CfgLoopList loops = {0};
  cfg_natural_loops(&cfg, &loops);
  LLVMValueRef marker = LLVMGetNamedFunction(ck->m, MARKER);
  LLVMTypeRef mty = LLVMFunctionType(ck->void_t, NULL, 0, 0);
  if (!marker) marker = LLVMAddFunction(ck->m, MARKER, mty);
  int marked = 0;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  for (size_t k = 0; k < loops.len; k++) {
    bool top = true;
    for (size_t j = 0; j < loops.len && top; j++)
      top = j == k || loops.data[j].header == loops.data[k].header ||
            !cfg_in_loop(&cfg, &loops.data[j], loops.data[k].header);
    bool seen = false; /* natural loops sharing a header are one loop */
    for (size_t j = 0; j < k && !seen; j++) seen = loops.data[j].header == loops.data[k].header;
    if (!top || seen || !movable(&cfg, &loops.data[k]) || !does_work(&cfg, &loops.data[k], &loops)) continue;
    if (!counts_time(&cfg, &loops.data[k])) {
      if (getenv("PARAD_AUTO_WHY")) /* a compiler's debugging aid, as PARAD_PLAN */
        fprintf(stderr, "parad-cc: %s: a top-level loop left taped under a budget: its counter takes part in an "
                        "address (a sweep over an array, not a time loop)\n", LLVMGetValueName(fn));
      continue;
    }
    LLVMValueRef at = LLVMGetFirstInstruction(loops.data[k].header);
    while (at && LLVMIsAPHINode(at)) at = LLVMGetNextInstruction(at);
    if (!at) continue;
    LLVMPositionBuilderBefore(b, at);
    LLVMValueRef call = LLVMBuildCall2(b, mty, marker, NULL, 0, "");
    LLVMMetadataRef loc = NULL;
    for (LLVMValueRef i = at; i && !loc; i = LLVMGetNextInstruction(i)) loc = LLVMInstructionGetDebugLoc(i);
    if (loc) LLVMInstructionSetDebugLoc(call, loc);
    marked++;
  }
  LLVMDisposeBuilder(b);
  for (size_t k = 0; k < loops.len; k++) free(loops.data[k].body);
  vec_free(&loops);
  cfg_free(&cfg);
  return marked;
}

/* ---- the switch ---- */

/* Makes request call c (of F) ask for twin's gradient instead when a budget is set:
 *     if (__parad_rt_ckpt_auto("twin", &most)) r = request(twin, args...);
 *     else { since = watch(); r = request(F, args...); learn(&most, since); }
 * in c's place (the requests' arguments stay what the program passed there). */
static void add_switch(Ck *ck, LLVMValueRef c, LLVMValueRef twin) {
  RequestChoice ch = request_choice(c, twin);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ck->c);
  LLVMPositionBuilderAtEnd(b, ch.head);
  /* the twin named by a string: its address passed would make it a candidate of every call through a
     pointer of its type */
  const char *tname = LLVMGetValueName(twin);
  LLVMValueRef init = LLVMConstStringInContext(ck->c, tname, (unsigned)strlen(tname), 0);
  LLVMValueRef named = LLVMAddGlobal(ck->m, LLVMTypeOf(init), "parad.auto.twin");
  LLVMSetInitializer(named, init);
  LLVMSetGlobalConstant(named, 1);
  LLVMSetLinkage(named, LLVMPrivateLinkage);
  /* the most bytes the site's plain gradient held the last time */
  LLVMValueRef most = LLVMAddGlobal(ck->m, ck->i64, "parad.auto.most");
  LLVMSetInitializer(most, LLVMConstInt(ck->i64, 0, 0));
  LLVMSetLinkage(most, LLVMPrivateLinkage);
  LLVMValueRef aargs[2] = {named, most};
  LLVMTypeRef aps[2] = {ck->ptr, ck->ptr};
  LLVMValueRef on = ir_call_named(b, "__parad_rt_ckpt_auto", LLVMFunctionType(ck->i32, aps, 2, 0), aargs, 2);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, on, LLVMConstInt(ck->i32, 0, 0), ""), ch.other, ch.plain);
  LLVMPositionBuilderBefore(b, c);
  LLVMValueRef since = ir_call_named(b, "__parad_rt_tape_budget_watch", LLVMFunctionType(ck->i64, NULL, 0, 0), NULL, 0);
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(ch.plain));
  LLVMValueRef largs[2] = {most, since};
  LLVMTypeRef lps[2] = {ck->ptr, ck->i64};
  ir_call_named(b, "__parad_rt_ckpt_auto_learn", LLVMFunctionType(ck->void_t, lps, 2, 0), largs, 2);
  LLVMDisposeBuilder(b);
}

void checkpoint_auto_prepare(Ck *ck) {
  ValueMap differentiated;
  vmap_init(&differentiated);
  checkpoint_differentiated(ck->m, &differentiated);
  ValueList calls = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(ck->m); f; f = LLVMGetNextFunction(f))
    if (!strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        if (request_is_canonical_call(LLVMGetUser(u))) vec_push(&calls, LLVMGetUser(u));
  ValueMap twins; /* F -> its twin, or F itself where it gets none */
  vmap_init(&twins);
  for (size_t i = 0; i < calls.len; i++) {
    Request r;
    LLVMValueRef c = calls.data[i];
    if (!request_decode(c, &r)) continue;
    LLVMValueRef fn = r.fn;
    bool wanted = r.mode == MODE_REVERSE && !LLVMIsDeclaration(fn) && !vmap_has(&differentiated, fn_of(c)) &&
                  !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)) && !get_attr(fn, AUTO_OF) &&
                  !LLVMGetCallSiteEnumAttribute(c, LLVMAttributeFunctionIndex, ir_attr_kind("nomerge"));
    request_free(&r);
    if (!wanted) continue;
    LLVMValueRef twin = vmap_get(&twins, fn);
    if (!twin) {
      ValueMap seen;
      vmap_init(&seen);
      bool plain = !checkpoint_reaches(fn, marker_or_parallel, &seen);
      vmap_free(&seen);
      twin = fn;
      if (plain) {
        char *name = xasprintf("%s.budgeted", LLVMGetValueName(fn));
        ValueMap vm;
        vmap_init(&vm);
        twin = ir_clone_function(fn, name, &vm);
        vmap_free(&vm);
        free(name);
        checkpoint_give_subprogram(ck, twin, fn, LLVMGetValueName(fn));
        set_attr(twin, AUTO_OF, LLVMGetValueName(twin));
        if (!mark_loops(ck, twin)) {
          LLVMDeleteFunction(twin);
          twin = fn;
        }
      }
      vmap_put(&twins, fn, twin);
    }
    if (twin != fn) add_switch(ck, c, twin);
  }
  vmap_free(&twins);
  vmap_free(&differentiated);
  vec_free(&calls);
}

const char *checkpoint_auto_request_family(LLVMValueRef call) {
  const char *family = checkpoint_auto_family(fn_of(call));
  if (family) return family;
  return checkpoint_auto_family(ir_strip_pointer_casts(LLVMGetArgOperand(call, request_fn_arg(call))));
}

void checkpoint_auto_finish(LLVMModuleRef m) {
  LLVMValueRef on = LLVMGetNamedFunction(m, "__parad_rt_ckpt_auto");
  ValueList refused = {0};
  for (LLVMUseRef u = on ? LLVMGetFirstUse(on) : NULL; u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    LLVMValueRef named = ir_is_call(call) ? ir_strip_pointer_casts(LLVMGetArgOperand(call, 0)) : NULL;
    size_t len;
    const char *twin = named && LLVMIsAGlobalVariable(named) ? LLVMGetAsString(LLVMGetInitializer(named), &len) : NULL;
    char *name = twin ? xasprintf("%.*s", (int)len, twin) : NULL;
    if (name && checkpoint_auto_refused(m, name)) vec_push(&refused, call);
    free(name);
  }
  for (size_t i = 0; i < refused.len; i++) {
    LLVMReplaceAllUsesWith(refused.data[i], LLVMConstInt(LLVMTypeOf(refused.data[i]), 0, 0));
    LLVMInstructionEraseFromParent(refused.data[i]);
  }
  vec_free(&refused);
}
