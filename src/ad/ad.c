/* The two steps of the transformation over a whole module, and the memo of generated functions. */
#include "ad/ad.h"

#include <llvm-c/Analysis.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/custom.h"
#include "ad/indirect.h"
#include "ad/library.h"
#include "ad/registered.h"
#include "ad/body.h"
#include "ad/global_arguments.h"
#include "ad/global_blocks.h"
#include "ad/global_shadows.h"
#include "ad/checkpoint.h"
#include "ad/checkpoint_auto.h"
#include "ad/request.h"
#include "analysis/activity.h"
#include "analysis/calls.h"
#include "analysis/unwritten.h"
#include "forward/forward.h"
#include "reverse/reverse.h"
#include "ir/diag.h"
#include "ir/ir.h"
#include "omp/omp.h"

LLVMValueRef ad_find_generated(AdModule *ad, const char *key) {
  for (size_t i = 0; i < ad->generated.len; i++)
    if (!strcmp(ad->generated.data[i].key, key)) return ad->generated.data[i].fn;
  return NULL;
}

void ad_remember_generated(AdModule *ad, const char *key, LLVMValueRef fn) {
  Generated g = {xstrdup(key), fn};
  vec_push(&ad->generated, g);
}

LLVMValueRef ad_add_generated(AdModule *ad, const char *key, const char *name, LLVMTypeRef fty, LLVMBuilderRef *entry) {
  LLVMValueRef f = LLVMAddFunction(ad->mod, name, fty);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  ad_remember_generated(ad, key, f);
  *entry = LLVMCreateBuilderInContext(ad->ctx);
  LLVMPositionBuilderAtEnd(*entry, LLVMAppendBasicBlockInContext(ad->ctx, f, "entry"));
  return f;
}

void ad_remember_failure(AdModule *ad, const char *key, const char *kept) {
  Failure f = {xstrdup(key), xstrdup(kept ? kept : "")};
  vec_push(&ad->failures, f);
}

bool ad_failed(AdModule *ad, const char *key) {
  for (size_t i = 0; i < ad->failures.len; i++) {
    Failure *f = &ad->failures.data[i];
    if (strcmp(f->key, key)) continue;
    diag_replay(f->kept);
    if (!diag_trying()) f->kept[0] = 0; /* reported now */
    return true;
  }
  return false;
}

int ad_read_requests(LLVMModuleRef m) {
  library_register_all(m); /* the library's derivatives, as the program would register them */
  return custom_register_all(m) + registered_read_all(m) + batch_lower_all(m) + request_canonicalise_all(m);
}

int ad_prepare_loops(LLVMModuleRef m, int errors) {
  if (!errors) errors += request_waiting(m, true); /* no other file is coming */
  /* after the requests, which tell what the loops' variables hold; then the requests the loops make */
  if (checkpoint_outline_all(m, &errors) && !errors) errors += request_canonicalise_all(m);
  if (!errors) omp_prepare(m);
  return errors + checkpoint_note_steps(m); /* after omp_prepare, which rewrites the regions' reductions */
}

int ad_prepare(LLVMModuleRef m) { return ad_prepare_loops(m, ad_read_requests(m)); }

/* Any __parad_ or __enzyme_ function the program calls: known entry points are parsed, unknown ones
 * refused by name (the runtime's own functions aside). */
static bool is_entry_name(const char *name) {
  if (!strncmp(name, "__parad_rt_", 11)) return false;
  if (!strcmp(name, "__parad_checkpoint_loop")) return false; /* a marker: a file with only markers waits
                                                                 for the link, where its loops' requests are */
  return !strncmp(name, "__parad_", 8) || !strncmp(name, "__enzyme_", 9) ||
         !strncmp(name, REQUEST_PREFIX, strlen(REQUEST_PREFIX)) || request_is_cxx_entry_name(name);
}

bool ad_module_has_requests(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && LLVMGetFirstUse(f) && is_entry_name(LLVMGetValueName(f))) return true;
  return false;
}

/* The first call in fn, or in a function it calls or makes a team or task run, that `matches`; NULL when
 * there is none. */
static LLVMValueRef reachable_call(LLVMValueRef fn, bool (*matches)(LLVMValueRef call), ValueMap *seen) {
  if (vmap_has(seen, fn)) return NULL;
  vmap_put(seen, fn, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call_site(i)) continue;
      if (matches(i)) return i;
      LLVMValueRef callee = ir_called_function(i), run = omp_called_function(i), found = NULL;
      if (callee && !LLVMIsDeclaration(callee)) found = reachable_call(callee, matches, seen);
      if (!found && run) found = reachable_call(run, matches, seen);
      if (found) return found;
    }
  return NULL;
}

static LLVMValueRef first_call(LLVMValueRef fn, bool (*matches)(LLVMValueRef call)) {
  ValueMap seen;
  vmap_init(&seen);
  LLVMValueRef found = reachable_call(fn, matches, &seen);
  vmap_free(&seen);
  return found;
}

static bool reaches_other_files(LLVMValueRef fn, ValueMap *seen) {
  if (vmap_has(seen, fn)) return false;
  vmap_put(seen, fn, fn);
  /* a weak definition (not an inline function's, which the language says is the same everywhere) may
     be overridden by another file's: only the link knows which body the program runs */
  LLVMLinkage linkage = LLVMGetLinkage(fn);
  if (linkage == LLVMWeakAnyLinkage || linkage == LLVMLinkOnceAnyLinkage) return true;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsALoadInst(i) && global_block_set_elsewhere(i)) return true; /* a heap block's global */
      if (!ir_is_call_site(i)) continue;
      LLVMValueRef callee = ir_called_function(i);
      switch (call_classify(i, NULL)) {
      case CALL_MODULE:
        if (reaches_other_files(callee, seen)) return true;
        break;
      case CALL_OMP:
        callee = omp_called_function(i);
        if (callee && reaches_other_files(callee, seen)) return true;
        break;
      case CALL_INDIRECT: return true;
      case CALL_UNKNOWN:
        if (!custom_registered(callee)) return true;
        break;
      default: break;
      }
    }
  return false;
}

/* Whether a request differentiates its function through the derivative registered for it (as Enzyme
 * does): a forward rule in forward mode, a gradient in reverse mode. */
static bool through_registration(const Request *r) {
  LLVMValueRef aug, grad;
  if (r->mode != MODE_FORWARD) return custom_lookup(r->fn, &aug, &grad);
  return custom_derivative(r->fn) && !strstr(r->entry, "error_estimate");
}

bool ad_needs_whole_program(LLVMModuleRef m) {
  ValueMap seen;
  vmap_init(&seen);
  bool needs = request_waiting(m, false) > 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !needs; f = LLVMGetNextFunction(f)) {
    if (!LLVMIsDeclaration(f) || strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX))) continue;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u && !needs; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      LLVMValueRef fn = ir_is_call(call) ? ir_strip_pointer_casts(LLVMGetArgOperand(call, request_fn_arg(call))) : NULL;
      Request r;
      bool registered = false;
      if (fn && LLVMIsAFunction(fn) && request_decode(call, &r)) {
        registered = through_registration(&r);
        request_free(&r);
      }
      needs = fn && LLVMIsAFunction(fn) && ((LLVMIsDeclaration(fn) && !registered) || reaches_other_files(fn, &seen));
    }
  }
  vmap_free(&seen);
  return needs;
}

/* Where a reverse-mode derivative's tape begins (a lowered request). */
static bool begins_tape(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  return !strcmp(name, "__parad_rt_tape_begin") || !strcmp(name, "__parad_rt_tape_resume");
}

/* A call of a tangent function of several directions (vector forward mode). */
static bool calls_vector_tangent(LLVMValueRef call) {
  LLVMValueRef f = ir_called_function(call);
  return f && LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, FWD_WIDTH_ATTR, strlen(FWD_WIDTH_ATTR));
}

/* A derivative's call through a function pointer: the lookup of the pointee's derivative (ad/indirect.h). */
static bool looks_up_derivative(LLVMValueRef call) { return !strncmp(ir_called_name(call), "__parad_rt_derivative", 21); }

/* A call of the runtime that forward mode over a reverse sweep does not take yet: other than the tape's
 * and the shadow blocks' (forward/fwd_tape.c). */
static bool not_under_forward(LLVMValueRef call) {
  unsigned tangents;
  const char *name = ir_called_name(call);
  return (!strncmp(name, "__parad_rt_", 11) || !strncmp(name, "__parad_mpi_", 12)) &&
         call_tape_action(call, &tangents) == TAPE_NONE && call_classify(call, NULL) != CALL_INACTIVE;
}

/* A call of the checkpointed loops' runtime: named before the other calls a checkpointed loop makes (its
 * variables are kept on the heap). */
static bool checkpoint_runtime_call(LLVMValueRef call) {
  return !strncmp(ir_called_name(call), "__parad_rt_ckpt_", 16) && not_under_forward(call);
}

/* A global holding heap blocks whose adjoints' shadow global fn's code reads, or a function it calls does
 * (a gradient computed there): its shadows are set where the gradient's call is once every derivative is
 * generated, after a forward derivative over it has copied that code. */
static LLVMValueRef block_global_used(LLVMValueRef fn, ValueMap *seen) {
  if (vmap_has(seen, fn)) return NULL;
  vmap_put(seen, fn, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(i); k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k), found = NULL;
        if (!op) continue;
        if (LLVMIsAFunction(op) && !LLVMIsDeclaration(op)) found = block_global_used(op, seen);
        else if (LLVMIsAGlobalVariable(ir_address_base(op))) found = ad_block_global_of_adjoints(ir_address_base(op));
        if (found) return found;
      }
  return NULL;
}

static const char *construct_of_runtime_call(LLVMValueRef call) {
  static const struct {
    const char *prefix, *what;
  } what[] = {
      {"__parad_rt_derivative", "a call through a function pointer"},
      {"__parad_rt_ckpt_", "a loop checkpointed with __parad_checkpoint_loop()"},
      {"__parad_rt_tape_suspend", "split mode"},
      {"__parad_rt_tape_resume", "split mode"},
      {"__parad_rt_split", "split mode"},
      {"__parad_rt_region", "an OpenMP parallel region"},
      /* what a region's derivative calls inside it: its threads' shares, copies and chains */
      {"__parad_rt_shared", "an OpenMP parallel region"},
      {"__parad_rt_run_copy", "an OpenMP parallel region"},
      {"__parad_rt_chain", "an OpenMP parallel region"},
      {"__parad_rt_output", "an OpenMP parallel region"},
      {"__parad_rt_gather", "an OpenMP parallel region"},
      {"__parad_rt_clean", "an OpenMP parallel region"},
      {"__parad_rt_critical", "an OpenMP critical section"},
      {"__parad_rt_task", "an OpenMP task"},
      {"__parad_rt_mpi", "MPI communication"},
      {"__parad_rt_slot_on_heap", "a local array kept on the heap for the reverse sweep (one given to qsort, to "
                                  "a registered derivative, or of 1 MiB or more)"},
  };
  for (size_t k = 0; k < sizeof what / sizeof what[0]; k++)
    if (!strncmp(ir_called_name(call), what[k].prefix, strlen(what[k].prefix))) return what[k].what;
  static char library_call[96]; /* a C library function whose derivative the runtime gives: named */
  const char *mpi = strstr(ir_called_name(call), "MPI_");
  if (!strncmp(ir_called_name(call), "__parad_mpi_", 12) && mpi) { /* __parad_mpi_aug_MPI_Allreduce */
    snprintf(library_call, sizeof library_call, "MPI communication ('%s')", mpi);
    return library_call;
  }
  const char *lib = library_function_of(ir_called_name(call));
  if (!lib) return "a call of Parad's runtime";
  snprintf(library_call, sizeof library_call, "a call of '%s' (its derivative is Parad's runtime's)", lib);
  return library_call;
}

/* Replaces a request by its derivative; false where it could not (reported). */
static bool lower(AdModule *ad, LLVMValueRef call) {
  Request r;
  if (!request_decode(call, &r)) return false;
  if (through_registration(&r)) { /* the registered derivative applies to the function a request names too */
    r.fn = custom_caller(r.fn);
    LLVMSetOperand(call, request_fn_arg(call), r.fn);
  }
  if (LLVMIsDeclaration(r.fn)) {
    diag_error_plain(call, "%s: cannot differentiate '%s', " NOT_IN_PROGRAM, r.entry, LLVMGetValueName(r.fn));
    request_free(&r);
    return false;
  }
  /* Forward mode over a gradient (a Hessian-vector product) gives its tapes tangent twins
     (forward/fwd_tape.c); adjoints of a tape are not built. */
  LLVMValueRef sweep = first_call(r.fn, begins_tape);
  LLVMValueRef unsupported = NULL;
  if (sweep && r.mode == MODE_FORWARD && !(unsupported = first_call(r.fn, checkpoint_runtime_call)))
    unsupported = first_call(r.fn, not_under_forward);
  if (sweep && (r.mode != MODE_FORWARD || r.width > 1)) {
    diag_error_plain(sweep, "%s of '%s': %s over a reverse-mode derivative computed here is not supported yet; "
                     "forward mode over it (one direction: a Hessian-vector product) is", r.entry, LLVMGetValueName(r.fn),
                     r.mode == MODE_FORWARD ? "vector forward mode" : "reverse mode");
    request_free(&r);
    return false;
  }
  if (unsupported) {
    diag_error_plain(sweep, "%s of '%s': forward mode over a reverse-mode derivative computed here cannot "
                     "differentiate %s in it yet", r.entry, LLVMGetValueName(r.fn), construct_of_runtime_call(unsupported));
    request_free(&r);
    return false;
  }
  if (sweep && r.mode == MODE_FORWARD) {
    ValueMap seen;
    vmap_init(&seen);
    LLVMValueRef block = block_global_used(r.fn, &seen);
    vmap_free(&seen);
    if (block) {
      diag_error_plain(sweep, "%s of '%s': forward mode over a reverse-mode derivative computed here cannot "
                       "differentiate the heap blocks the global variable '%s' holds in it yet; pass them as "
                       "arguments", r.entry, LLVMGetValueName(r.fn), LLVMGetValueName(block));
      request_free(&r);
      return false;
    }
  }
  /* a derivative called through a pointer: the derivatives of the functions it may be are not made
     (nor looked up), and the program stopped at the call */
  LLVMValueRef lookup = sweep ? NULL : first_call(r.fn, looks_up_derivative);
  if (lookup) {
    diag_error_plain(lookup, "%s of '%s': a derivative over a derivative computed here cannot differentiate %s in "
                     "it yet; call the function directly there", r.entry, LLVMGetValueName(r.fn), construct_of_runtime_call(lookup));
    request_free(&r);
    return false;
  }
  LLVMValueRef vector = r.mode != MODE_FORWARD ? first_call(r.fn, calls_vector_tangent) : NULL;
  if (vector) { /* (its shadows are vectors of the directions, which the reverse generator does not take) */
    diag_error_plain(vector, "%s of '%s': reverse mode over vector forward mode (a width) computed here is not "
                     "supported yet; over forward mode of one direction it is", r.entry, LLVMGetValueName(r.fn));
    request_free(&r);
    return false;
  }
  diag_set_request(call);
  int errors = r.mode == MODE_FORWARD ? fwd_lower_request(ad, &r) : rev_lower_request(ad, &r);
  diag_set_request(NULL);
  request_free(&r);
  return errors == 0;
}

/* A request of a twin's family (checkpoint_auto.c): only tried; where it fails, or the twin was refused
 * before, the twin is, and the request goes (nothing runs it then: its switch takes F's gradient). */
static void lower_tried(AdModule *ad, LLVMValueRef call, const char *family) {
  bool replaced = false, clean = false;
  char *kept = NULL;
  if (!checkpoint_auto_refused(ad->mod, family)) {
    diag_capture_begin(true);
    replaced = lower(ad, call);
    kept = diag_capture_end();
    clean = replaced && !*kept;
  }
  if (!clean) checkpoint_auto_refuse(ad->mod, family, kept);
  free(kept);
  if (replaced) return;
  LLVMTypeRef t = LLVMTypeOf(call);
  if (LLVMGetTypeKind(t) != LLVMVoidTypeKind) LLVMReplaceAllUsesWith(call, LLVMGetPoison(t));
  LLVMInstructionEraseFromParent(call);
}

static bool failed(AdModule *ad, const char *key) {
  for (size_t i = 0; i < ad->failures.len; i++)
    if (!strcmp(ad->failures.data[i].key, key)) return true;
  return false;
}

/* What was only tried and failed (derivatives a function pointer might have needed, whose refusal the
 * runtime reports if it ever does): only failed functions refer to them; their bodies go. */
static void drop_failed(AdModule *ad) {
  for (size_t i = 0; i < ad->generated.len; i++) {
    Generated *g = &ad->generated.data[i];
    size_t n = strlen(g->key);
    char *base = xstrdup(g->key);
    if (n > 4 && !strcmp(base + n - 4, "|rev")) base[n - 4] = 0; /* a pair's reverse function */
    if (failed(ad, base)) { /* a pair refused before its body was begun is still a declaration */
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
          if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind) LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetLastInstruction(bb), prev; i; i = prev) { /* branches go before blocks */
          prev = LLVMGetPreviousInstruction(i);
          LLVMInstructionEraseFromParent(i);
        }
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->fn), next; bb; bb = next) {
        next = LLVMGetNextBasicBlock(bb);
        LLVMDeleteBasicBlock(bb);
      }
      LLVMBuilderRef b = LLVMCreateBuilderInContext(ad->ctx);
      LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ad->ctx, g->fn, "refused"));
      LLVMBuildUnreachable(b);
      LLVMDisposeBuilder(b);
    }
    free(base);
  }
}

/* Generated code that LLVM's verifier rejects is a bug of Parad's, never the user's: each such function
 * is reported at the function it derives from (keys name it second: "rev|f|..", "fwd|f|..", "fwdteam|f|.."),
 * and the verifier's own words follow, for the bug report. */
static void verify_generated(AdModule *ad) {
  int before = diag_error_count();
  ValueMap seen;
  vmap_init(&seen);
  for (size_t i = 0; i < ad->generated.len; i++) {
    Generated *g = &ad->generated.data[i];
    if (vmap_has(&seen, g->fn) || LLVMIsDeclaration(g->fn)) continue;
    vmap_put(&seen, g->fn, g->fn);
    if (!LLVMVerifyFunction(g->fn, LLVMReturnStatusAction)) continue;
    const char *bar = strchr(g->key, '|');
    char name[256] = "";
    if (bar) snprintf(name, sizeof name, "%.*s", (int)strcspn(bar + 1, "|"), bar + 1);
    LLVMValueRef orig = LLVMGetNamedFunction(ad->mod, name);
    LLVMBasicBlockRef entry = orig && !LLVMIsDeclaration(orig) ? LLVMGetEntryBasicBlock(orig) : NULL;
    diag_error(entry ? LLVMGetFirstInstruction(entry) : orig,
               "internal error: Parad generated invalid code for the %s (%s): this is a bug in Parad, not in your "
               "program; please report it with this source file and the command line (parad-cc -v prints every step)",
               !strncmp(g->key, "rev", 3) ? "reverse-mode derivative" : "forward-mode derivative", LLVMGetValueName(g->fn));
  }
  vmap_free(&seen);
  char *msg = NULL;
  if (diag_error_count() > before && LLVMVerifyModule(ad->mod, LLVMReturnStatusAction, &msg))
    fprintf(stderr, "parad-cc: what LLVM's verifier says of the generated code:\n%s\n", msg);
  LLVMDisposeMessage(msg);
}

int ad_generate(LLVMModuleRef m, bool *run_long_conditions) {
  AdModule ad = {.mod = m, .ctx = LLVMGetModuleContext(m), .count_updates = getenv("PARAD_COUNT_UPDATES") != NULL,
                .check_clean = getenv("PARAD_CHECK_CLEAN") != NULL};
  int before = diag_error_count();
  if (checkpoint_check_copies(m)) return diag_error_count() - before;
  checkpoint_rebase_notes(m);
  ad_global_shadows_begin(m); /* which functions the requests reach (ad/global_shadows.h) */
  unwritten_program_begin(m);
  ValueList pending = {0}, later = {0}, tried = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && !strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        if (ir_is_call(LLVMGetUser(u))) vec_push(&pending, LLVMGetUser(u));
  vmap_init(&ad.under_forward);
  for (size_t i = 0; i < pending.len; i++) { /* (quietly: each request says what is wrong with it when lowered) */
    Request r;
    diag_capture_begin(true);
    bool decoded = request_decode(pending.data[i], &r);
    free(diag_capture_end());
    if (!decoded) continue;
    if (r.mode == MODE_FORWARD && !LLVMIsDeclaration(r.fn)) request_functions_from(r.fn, &ad.under_forward);
    request_free(&r);
  }
  /* Inner requests first: a function that itself asks for a derivative is differentiated once its
   * request has become a call of a generated function, which differentiates like any other
   * (forward over forward gives second derivatives). Requests that wait on each other are refused. */
  while (pending.len) {
    later.len = 0;
    for (size_t i = 0; i < pending.len; i++) {
      LLVMValueRef call = pending.data[i];
      bool waits = first_call(ir_strip_pointer_casts(LLVMGetArgOperand(call, request_fn_arg(call))), request_is_canonical_call);
      if (checkpoint_auto_request_family(call))
        vec_push(&tried, call); /* after every other: what they need is made as they need it */
      else if (waits)
        vec_push(&later, call);
      else
        lower(&ad, call);
    }
    if (later.len == pending.len) {
      for (size_t i = 0; i < later.len; i++)
        diag_error(later.data[i], "cannot differentiate a function that asks, directly or through the functions "
                                  "it calls, for a derivative of itself");
      break;
    }
    ValueList swap = pending;
    pending = later;
    later = swap;
  }
  for (size_t i = 0; i < tried.len; i++)
    lower_tried(&ad, tried.data[i], checkpoint_auto_request_family(tried.data[i]));
  vec_free(&tried);
  vec_free(&pending);
  vec_free(&later);
  /* The request declarations are gone from the code; drop them from the module too. */
  for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    if (LLVMIsDeclaration(f) && !LLVMGetFirstUse(f) && !strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      LLVMDeleteFunction(f);
  }
  checkpoint_auto_finish(m);
  indirect_emit_table(&ad);
  for (size_t i = 0; i < ad.tangent_entries.len; i++) ad_guard_global_shadows(m, ad.tangent_entries.data[i], SHADOW_READ);
  for (size_t i = 0; i < ad.adjoint_entries.len; i++) ad_guard_global_shadows(m, ad.adjoint_entries.data[i], SHADOW_ADD);
  for (size_t i = 0; i < ad.tangent_entries.len; i++) {
    ad_zero_global_shadows(m, ad.tangent_entries.data[i], SHADOW_READ);
    ad_enter_global_blocks(m, ad.tangent_entries.data[i], SHADOW_READ);
    ad_leave_global_blocks(m, ad.tangent_entries.data[i], SHADOW_READ);
  }
  for (size_t i = 0; i < ad.adjoint_entries.len; i++) {
    ad_isolate_global_adjoints(m, ad.adjoint_entries.data[i]);
    ad_leave_global_blocks(m, ad.adjoint_entries.data[i], SHADOW_ADD);
  }
  for (size_t i = 0; i < ad.split_starts.len; i++) {
    ad_zero_global_adjoints_unless_split(m, ad.split_starts.data[i]);
    ad_note_split_carried(m, ad.split_starts.data[i]);
  }
  for (size_t i = 0; i < ad.split_reverses.len; i++) {
    ad_check_split_order(m, ad.split_reverses.data[i]);
    ad_leave_global_blocks(m, ad.split_reverses.data[i], SHADOW_ADD);
  }
  for (size_t i = 0; i < ad.adjoint_starts.len; i++) ad_enter_global_blocks(m, ad.adjoint_starts.data[i], SHADOW_ADD);
  vec_free(&ad.tangent_entries);
  vec_free(&ad.adjoint_entries);
  vec_free(&ad.adjoint_starts);
  vec_free(&ad.split_starts);
  vec_free(&ad.split_reverses);
  ad_global_shadows_end();
  global_arguments_finish(m);
  unwritten_program_end();
  vmap_free(&ad.under_forward);
  ad_body_drop(&ad);
  ad_iter_lower(m);
  checkpoint_lower_notes(m);
  if (diag_error_count() == before) {
    drop_failed(&ad);
    verify_generated(&ad);
  }
  for (size_t i = 0; i < ad.generated.len; i++) free(ad.generated.data[i].key);
  vec_free(&ad.generated);
  for (size_t i = 0; i < ad.failures.len; i++) free(ad.failures.data[i].key), free(ad.failures.data[i].kept);
  vec_free(&ad.failures);
  activity_cache_free(&ad);
  if (run_long_conditions) *run_long_conditions = ad.run_long_conditions;
  return diag_error_count() - before;
}
