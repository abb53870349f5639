#include "driver/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "ad/ad.h"
#include "ad/apart.h"
#include "ad/atomic_adds.h"
#include "ad/byte_loops.h"
#include "ad/float_bits.h"
#include "ad/checkpoint.h"
#include "ad/copy_contexts.h"
#include "ad/byval_copies.h"
#include "ad/defined_lanes.h"
#include "ad/forced_vectors.h"
#include "ad/function_versions.h"
#include "ad/library_expansions.h"
#include "ad/local_array_loops.h"
#include "ad/optimised_copies.h"
#include "ad/registered.h"
#include "ad/request.h"
#include "ad/slp_outside_reverse.h"
#include "ad/unprototyped_calls.h"
#include "ad/x86_vectors.h"
#include "analysis/memtype.h"
#include "driver/instrumentation.h"
#include "ir/bfloat_truncs.h"
#include "ir/diag.h"
#include "mpi/mpi.h"
#include "omp/omp.h"
#include "reverse/reverse.h"

/* A target machine like clang's, so that the optimiser's cost models (vectoriser, unroller, inliner)
 * decide as they do under clang. */
static LLVMTargetMachineRef target_machine(LLVMModuleRef m, char opt) {
  static int initialised;
  if (!initialised) {
    LLVMInitializeAllTargetInfos();
    LLVMInitializeAllTargets();
    LLVMInitializeAllTargetMCs();
    initialised = 1;
  }
  const char *triple = LLVMGetTarget(m);
  char *owned = NULL;
  if (!triple || !*triple) triple = owned = LLVMGetDefaultTargetTriple();
  LLVMTargetRef target;
  char *err = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (!LLVMGetTargetFromTriple(triple, &target, &err)) {
    LLVMCodeGenOptLevel level = opt == '0' ? LLVMCodeGenLevelNone : opt == '3' ? LLVMCodeGenLevelAggressive
                                                                                 : LLVMCodeGenLevelDefault;
    tm = LLVMCreateTargetMachine(target, triple, "", "", level, LLVMRelocPIC, LLVMCodeModelDefault);
  } else {
    LLVMDisposeMessage(err);
  }
  if (owned) LLVMDisposeMessage(owned);
  return tm;
}

static bool run_passes(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, bool vec, bool slp,
                       bool unroll, int inline_threshold, bool verbose) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  if (inline_threshold) LLVMPassBuilderOptionsSetInlinerThreshold(po, inline_threshold);
  LLVMPassBuilderOptionsSetLoopVectorization(po, vec);
  LLVMPassBuilderOptionsSetSLPVectorization(po, slp);
  LLVMPassBuilderOptionsSetLoopUnrolling(po, unroll);
  LLVMPassBuilderOptionsSetLoopInterleaving(po, unroll);
  /* the call graph's profile (with -fprofile-instr-use) is a module flag each run of the pipeline would add
     again: two are an invalid module */
  if (LLVMGetModuleFlag(m, "CG Profile", 10)) LLVMPassBuilderOptionsSetCallGraphProfile(po, 0);
  if (verbose) fprintf(stderr, " (in process) passes %s%s%s%s\n", passes, vec ? " +vectorize" : "",
                       slp ? " +slp" : "", unroll ? " +unroll" : "");
  LLVMErrorRef e = LLVMRunPasses(m, passes, tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    fprintf(stderr, "parad-cc: internal error: running passes '%s': %s\n", passes, msg);
    LLVMDisposeErrorMessage(msg);
    return false;
  }
  return true;
}

/* The copies per run-long condition are made by non-trivial unswitching, which LLVM keeps to small loops
 * (cost 50): a reverse loop testing whether a thread owns what it adds, whether its team has one thread
 * and whether its adds go to a private buffer is larger, and was left with the tests in it, unvectorised
 * (a matrix product's gradient at 2 threads 8.4 times the primal, 2.6 with the limit at 200; the heat
 * stencil's adjoint window needs 1000: 1.5 -> 1.1 times the hand-written adjoint; compile times up to 18%
 * longer, code up to 13% larger). The options are the process's: set once. */
static void set_llvm_options(bool no_loops) {
  static bool set;
  if (set) return;
  set = true;
  /* The pass builder's options leave the vectorisers in LLVM 19's in-process pipelines; their own switches
   * take them out (`-fno-vectorize`, as clang honours it). LLVM 19's loop vectoriser takes a read at a
   * wrapping index (`c[(7 * i) % 64]`) for an interleaved group at a fixed stride, and reads the wrong
   * elements once the index wraps: the forward sweep's loop recording such reads has no float reduction
   * to keep it from vectorising, so gradients came out wrong (clang alone does the same under
   * -ffast-math). Interleaved groups are off in what Parad optimises (their cost: docs/design.md). */
  const char *argv[4] = {"parad", "-unswitch-threshold=1000", "-enable-interleaved-mem-accesses=false"};
  int argc = 3;
  if (no_loops) argv[argc++] = "-vectorize-loops=false";
  LLVMParseCommandLineOptions(argc, argv, NULL);
}

/* The SLP vectoriser's switch, the process's too, set before each run that has it: on only for the run
 * that keeps it out of reverse sweeps (ad/slp_outside_reverse.h). */
static void set_slp(bool on) {
  const char *argv[2] = {"parad", on ? "-vectorize-slp=true" : "-vectorize-slp=false"};
  LLVMParseCommandLineOptions(2, argv, NULL);
}

/* The SLP vectoriser and the clean-up clang's pipeline runs after it, on every function but those that
 * hold reverse-sweep code. */
static bool run_slp_outside_reverse(LLVMModuleRef m, LLVMTargetMachineRef tm, bool verbose) {
  SlpReverse held = {0};
  slp_hold_reverse(m, &held);
  set_slp(true);
  bool ran = run_passes(m, tm, "function(slp-vectorizer,vector-combine,instcombine<no-verify-fixpoint>)", true, true,
                        true, 0, verbose);
  set_slp(false);
  slp_release_reverse(m, &held);
  return ran;
}

/* Before differentiating, callees are inlined more readily than at -O2 (threshold 225): a call inside
 * differentiated code becomes a pair of functions whose forward half must record everything its reverse
 * half needs, while inlined code shares the caller's tape, recomputation and loops. */
enum { PRE_AD_INLINE_THRESHOLD = 1000 };

/* A file whose derivatives wait for the link (its object calls the entry points, which parad-cc's link
 * replaces) gets a note for a linker that is not parad-cc's: GNU ld prints a .gnu.warning.<symbol> section's
 * text where the symbol is referenced, before its "undefined reference to __parad_autodiff", which alone
 * did not say why. Added to the front end's IR as it is (a fresh parse), which the object also carries. */
static bool mark_deferred(const char *path) {
  static const char note[] = "this object's derivatives are made when the program is linked: link it with parad-cc";
  static const char *const entries[] = {"__parad_autodiff", "__parad_fwddiff", "__enzyme_autodiff", "__enzyme_fwddiff"};
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf;
  LLVMModuleRef m = NULL;
  char *msg = NULL;
  bool ok = !LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg) && !LLVMParseIRInContext(ctx, buf, &m, &msg);
  if (msg) LLVMDisposeMessage(msg);
  for (size_t i = 0; ok && i < sizeof entries / sizeof *entries; i++) {
    if (!LLVMGetNamedFunction(m, entries[i])) continue;
    char *section = xasprintf(".gnu.warning.%s", entries[i]), *name = xasprintf("parad.link_note.%s", entries[i]);
    LLVMValueRef text = LLVMConstStringInContext(ctx, note, (unsigned)sizeof note - 1, 0);
    LLVMValueRef g = LLVMAddGlobal(m, LLVMTypeOf(text), name);
    LLVMSetInitializer(g, text);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetSection(g, section);
    ir_append_used(m, g);
    free(section), free(name);
  }
  ok = ok && !LLVMWriteBitcodeToFile(m, path);
  if (m) LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return ok;
}

/* Whether a function a request reaches is optnone (built at -O0, in a program otherwise optimised). */
static bool requests_reach_optnone(LLVMModuleRef m) {
  ValueMap reached;
  vmap_init(&reached);
  request_reached_functions(m, &reached);
  bool any = false;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !any; f = LLVMGetNextFunction(f))
    any = vmap_has(&reached, f) && ir_fn_has_attr(f, "optnone");
  vmap_free(&reached);
  return any;
}

/* copies: differentiate optimised copies (ad/optimised_copies.h) of what was built at -O0 */
static int run(const char *in_path, const char *out_path, PipelineOptions *o, bool copies) {
  RequestReaches reach = {0}; /* at -O0: which requests a refusal of the copies' derivatives is about */
  o->optimised_derivatives = false;
  o->made_copies = false;
  o->apart_choices = 0;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetDiscardValueNames(ctx, 1); /* as clang does: names can change what the optimiser does */
  diag_handle_optimiser(ctx);
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(in_path, &buf, &msg)) {
    fprintf(stderr, "parad-cc: error: cannot read %s: %s\n", in_path, msg);
    LLVMDisposeMessage(msg);
    LLVMContextDispose(ctx);
    return PIPELINE_FAILED;
  }
  LLVMModuleRef m;
  if (LLVMParseIRInContext(ctx, buf, &m, &msg)) {
    fprintf(stderr, "parad-cc: error: %s: %s\n", in_path, msg);
    LLVMDisposeMessage(msg);
    LLVMContextDispose(ctx);
    return PIPELINE_FAILED;
  }
  LLVMTargetMachineRef tm = target_machine(m, o->opt);
  int rc = PIPELINE_OK;
  ProgramShield shield = {0};
  char level[16];
  snprintf(level, sizeof level, "default<O%c>", o->opt);

  LLVMSetModuleIdentifier(m, o->source_name, strlen(o->source_name));
  bool markers = request_weaken_markers(m) > 0; /* several files of a program may define them */
  if (!ad_module_has_requests(m)) {
    rc = !markers ? PIPELINE_NO_REQUESTS : LLVMWriteBitcodeToFile(m, out_path) ? PIPELINE_FAILED : PIPELINE_MARKERS;
    goto done;
  }
  if (!o->has_line_info) {
    rc = PIPELINE_WANTS_LINE_INFO;
    goto done;
  }
  if (o->loose_aliasing) memtype_mark_loose_aliasing(m);
  /* instrumentation clang's own pipeline adds first (profiles' counters, gcov's); the sanitizers' last */
  char passes[96];
  if (instrumentation_first(m, passes, sizeof passes) && !run_passes(m, tm, passes, false, false, false, 0, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  instrumentation_note_exempt(m);
  /* a helper that passes the function it is given on to a request, inlined (nested helpers: again) */
  for (int round = 0; round < 4 && request_inline_forwarders(m); round++)
    if (!run_passes(m, tm, "always-inline", false, false, false, 0, o->verbose)) {
      rc = PIPELINE_FAILED;
      goto done;
    }
  int errors = ad_read_requests(m);
  o->sees_too_little = o->file_only && ad_needs_whole_program(m);
  if (!errors && o->may_defer && ad_needs_whole_program(m)) {
    rc = mark_deferred(in_path) ? PIPELINE_DEFERRED : PIPELINE_FAILED;
    goto done;
  }
  if (ad_prepare_loops(m, errors)) {
    rc = PIPELINE_REFUSED;
    goto done;
  }
  /* before the copies and the inlining: bsearch's comparator, called directly, is copied and inlined and its
     key made values, as -O2 does with glibc's inline search (ad/library_expansions.h) */
  ValueMap first_reached;
  vmap_init(&first_reached);
  request_reached_functions(m, &first_reached);
  library_expansions_apply(m, &first_reached);
  vmap_free(&first_reached);
  /* At -O0 the derivatives are made from optimised copies of the functions they reach (the program's
   * own stay as compiled, for the debugger), and the derivative code is optimised as at -O2. */
  /* So too where the program is optimised but a function a request reaches was built at -O0 (one file of
   * the program, for the debugger): its derivative was made as written, every value on the stack (8-10
   * times the primal where the copy's is 1-2). */
  bool make_copies = copies && (o->opt == '0' || requests_reach_optnone(m));
  o->made_copies = make_copies && ad_make_optimised_copies(m, o->as_compiled, o->n_as_compiled) > 0;
  bool optimise = o->opt != '0' || o->made_copies;
  diag_error_functions_clear();
  o->optimised_derivatives = o->opt == '0' && optimise;
  bool vectorize = o->optimised_derivatives || o->vectorize, slp = o->optimised_derivatives || o->slp_vectorize,
       unroll = o->optimised_derivatives || o->unroll;
  if (o->optimised_derivatives) {
    snprintf(level, sizeof level, "default<O2>");
    ad_shield_program(m, &shield);
  }
  /* Light optimisation before differentiating: the derivative of optimised code is several times
   * faster. No vectorisation or unrolling yet: they come after, on primal and derivative alike. The -O1
   * pipeline, because the -O2 one vectorises loops whatever the pass builder options say (LLVM 19), and
   * the adjoint of a vector loop over a stencil adds into overlapping vectors, which stalls the stores. */
  /* a reverse-mode request of a function without restrict pointers: a choice of gradients, on a check of
     its arguments built from the optimised code (ad/apart.h) */
  bool choices = optimise && !o->no_apart && !getenv("PARAD_NO_APART") && apart_version_requests(m) > 0;
  bool held = optimise && forced_vectors_hold(m) > 0; /* an omp simd loop's too (ad/forced_vectors.h) */
  bool opaque = optimise && registered_hold_opaque(m) > 0; /* registered functions' calls kept (ad/registered.h) */
  /* byte loops as their helpers have them, before inlining and unrolling (ad/byte_loops.h): the loops
     made plain enough to be seen (one block, an exit test of equality), the moves made block moves */
  if (optimise) {
    ValueMap early;
    vmap_init(&early);
    request_reached_functions(m, &early);
    bool plain = !byte_loops_maybe(m, &early) ||
                 run_passes(m, tm, "function(sroa,early-cse,simplifycfg,loop-simplify,lcssa,loop(loop-rotate,indvars),instcombine<no-verify-fixpoint>,simplifycfg)",
                            false, false, false, 0, o->verbose);
    if (plain) byte_loops_apply(m, &early);
    vmap_free(&early);
    if (!plain) {
      rc = PIPELINE_FAILED;
      goto done;
    }
  }
  bool light = !optimise || run_passes(m, tm, "default<O1>,function(loop-simplify)", false, false, false,
                                        PRE_AD_INLINE_THRESHOLD, o->verbose);
  if (held) forced_vectors_release(m);
  if (opaque) registered_release_opaque(m);
  if (light && o->made_copies) ad_call_copies(m);
  if (!light) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  if (optimise) checkpoint_drop_own_notes(m);
  /* short loops over small local arrays unrolled, the arrays made values (ad/local_array_loops.h); again
     where that made more arrays values-to-be (a record whose address an array of pointers held, as in
     `const State *s[2] = {l, r}`, stays in memory until that array is values itself) */
  for (int round = 0; optimise && round < 3 && local_array_loops_mark(m); round++) {
    bool ran = run_passes(m, tm, "function(loop(loop-unroll-full),sroa<modify-cfg>,early-cse,simplifycfg)", false, false, false, 0, o->verbose);
    local_array_loops_release(m);
    if (!ran) {
      rc = PIPELINE_FAILED;
      goto done;
    }
  }
  if (optimise && checkpoint_drop_orphans(m) && !run_passes(m, tm, "globaldce", false, false, false, 0, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  o->apart_choices = choices ? apart_build_checks(m) : 0;
  if (o->apart_choices && getenv("PARAD_APART_REFUSE")) { /* for the test of the run again without them */
    diag_error_at_line(o->source_name, 0, "the gradients of copies refused (PARAD_APART_REFUSE)");
    rc = PIPELINE_REFUSED;
    goto done;
  }
  if (optimise && (omp_mark_read_only_captures(m) + omp_mark_struct_captures(m)) &&
      !run_passes(m, tm, "function(loop-mssa(licm))", false, false, false, 0, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  /* a 1-D worksharing loop's share in three parts, for the reverse sweep's decisions (before the dump:
     the generators see the parts) */
  if (optimise) omp_segment_runs(m);
  omp_shared_copies_as_loops(m);
  /* what the generators would not differentiate, made plain in the functions the requests reach */
  ValueMap reached;
  vmap_init(&reached);
  request_reached_functions(m, &reached);
  if (unprototyped_calls_apply(m, &reached)) { /* K&R function pointers (ad/unprototyped_calls.h): more reached */
    vmap_free(&reached);
    vmap_init(&reached);
    request_reached_functions(m, &reached);
  }
  defined_lanes_fill(m, &reached);       /* lanes left undefined would poison adjoints (ad/defined_lanes.h) */
  library_expansions_apply(m, &reached); /* _FORTIFY_SOURCE, sincos (ad/library_expansions.h) */
  byte_loops_apply(m, &reached);         /* generic byte-by-byte copies and swaps (ad/byte_loops.h) */
  float_bits_apply(m, &reached);         /* copysign written on the bits (ad/float_bits.h) */
  x86_vectors_apply(m, &reached);        /* hadd, cvtpd2ps, dp: lanes that mix (ad/x86_vectors.h) */
  atomic_adds_apply(m, &reached);        /* _Atomic double's += as a compare-and-swap loop (ad/atomic_adds.h) */
  function_versions_pin(m, &reached);    /* target_clones (ad/function_versions.h) */
  copy_contexts_split(m, &reached);      /* a generic helper's copies, per kind (ad/copy_contexts.h) */
  byval_copies_apply(m, &reached);       /* structs passed by value: copies of their own (ad/byval_copies.h) */
  memtype_drop_overruled_tags(m, &reached); /* doubles moved as `long` words (analysis/memtype.h) */
  vmap_free(&reached);
  mpi_note_set_up_requests(m); /* persistent requests the set-up makes, in every function (mpi/mpi.h) */
  ad_unshield_program(&shield); /* the generators take the program's linkage as it is */
  /* for Parad's developers: the IR the generators see */
  const char *dump = getenv("PARAD_DUMP_PREPARED");
  if (dump && LLVMPrintModuleToFile(m, dump, &msg)) LLVMDisposeMessage(msg);
  bool run_long_conditions = false;
  if (o->made_copies) ad_requests_reach(m, &reach); /* as the generators will see them */
  bool refused = ad_generate(m, &run_long_conditions);
  apart_resolve_globals();
  if (o->made_copies) ad_release_optimised_copies(m);
  if (refused) {
    ad_refused_requests(&reach, &o->as_compiled, &o->n_as_compiled);
    rc = PIPELINE_REFUSED;
    goto done;
  }
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) { /* ad_generate verifies what it wrote: not reached */
    fprintf(stderr, "parad-cc: internal error: the module is invalid after differentiation: this is a bug in Parad, "
                    "not in your program; please report it with this source file and the command line:\n%s\n", msg);
    LLVMDisposeMessage(msg);
    rc = PIPELINE_FAILED;
    goto done;
  }
  LLVMDisposeMessage(msg);
  bfloat_truncs_lower(m); /* adjoints of bfloats, without libgcc's missing __truncsfbf2 (ir/bfloat_truncs.h) */
  dump = getenv("PARAD_DUMP_GENERATED"); /* and the IR they wrote, before the optimiser */
  if (dump && LLVMPrintModuleToFile(m, dump, &msg)) LLVMDisposeMessage(msg);
  /* Parad asked the front end for line tables to place its diagnostics; drop them unless asked for. */
  if (!o->keep_debug) LLVMStripModuleDebugInfo(m);
  else ad_strip_copies_locations(m);
  /* The reverse sweep may test, in its loops, conditions that hold for a whole run of the loop (whether a
   * thread's adjoints may be added plainly, whether a window of adjoints may stay in registers). Each
   * such loop is copied once per outcome (the -O2 pipeline does that only for conditions that cost
   * nothing to test), once the pipeline has made the loops small enough to be worth copying; then the
   * pipeline again, on the copies. */
  set_llvm_options(!vectorize);
  set_slp(false); /* run after the pipelines, where it leaves reverse sweeps out */
  slp_tag_reverse(m, optimise && slp);
  if (o->optimised_derivatives) ad_shield_program(m, &shield);
  char unswitched[96];
  snprintf(unswitched, sizeof unswitched, "%s,function(loop-mssa(simple-loop-unswitch<nontrivial>))", level);
  if (optimise && run_long_conditions && !run_passes(m, tm, unswitched, vectorize, slp, unroll, 0, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  if (!run_passes(m, tm, level, vectorize, slp, unroll, 0, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  /* Updates that add an adjoint of zero, on the paths the program did not take: seen once the optimiser
   * has turned the adjoints into values (phis); the clean-up drops what only fed them. */
  if (optimise && rev_skip_zero_updates(m) &&
      !run_passes(m, tm, "function(instcombine<no-verify-fixpoint>,adce,simplifycfg)", false, false, false, 0, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  /* A region's sum that no one reads after it (a gradient drops the function's result): only after
   * inlining can that be seen, so the clean-up of what fed it comes after the pipeline. */
  if (optimise && omp_drop_unread_shared_writes(m) &&
      !run_passes(m, tm, "function(adce,instcombine<no-verify-fixpoint>,simplifycfg)", false, false, false, 0, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  if (optimise && slp && !run_slp_outside_reverse(m, tm, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  ad_unshield_program(&shield);
  if (instrumentation_last(m, passes, sizeof passes) && !run_passes(m, tm, passes, false, false, false, 0, o->verbose)) {
    rc = PIPELINE_FAILED;
    goto done;
  }
  if (o->text_output ? LLVMPrintModuleToFile(m, out_path, &msg) : LLVMWriteBitcodeToFile(m, out_path)) {
    fprintf(stderr, "parad-cc: error: cannot write %s\n", out_path);
    rc = PIPELINE_FAILED;
  }
done:
  ad_requests_reach_free(&reach);
  diag_error_functions_clear();
  ad_unshield_program(&shield);
  LLVMDisposeModule(m);
  if (tm) LLVMDisposeTargetMachine(tm);
  LLVMContextDispose(ctx);
  return rc;
}

/* A run whose derivatives are refused, or fail, after requests were given a choice of gradients (ad/apart.h)
 * runs again without the choices: a copy's gradient must never cost the program its build (none has been
 * seen to; the generators refuse a construct wherever it is, so the copy's refusal would be the
 * original's). */
static int run_without_failed_choices(const char *in_path, const char *out_path, PipelineOptions *o, bool copies) {
  diag_capture_begin(false);
  int rc = run(in_path, out_path, o, copies);
  if (!o->apart_choices || (rc != PIPELINE_REFUSED && rc != PIPELINE_FAILED)) {
    diag_capture_release();
    return rc;
  }
  char *dropped = diag_capture_drop();
  if (o->verbose) fprintf(stderr, " (in process) derivatives with gradients of copies refused; again, without:\n%s", dropped);
  free(dropped);
  if (rc == PIPELINE_FAILED)
    fprintf(stderr, "parad-cc: warning: internal error in the gradients of functions without restrict (a bug in Parad, "
                    "please report it); the file is differentiated without them instead\n");
  o->no_apart = true;
  rc = run(in_path, out_path, o, copies);
  o->no_apart = false;
  return rc;
}

static void forget_as_compiled(PipelineOptions *o) {
  for (size_t i = 0; i < o->n_as_compiled; i++) free(o->as_compiled[i]);
  free(o->as_compiled);
  o->as_compiled = NULL, o->n_as_compiled = 0;
}

/* With -v, what refused the copies' derivatives: the build goes on (as compiled), so its messages are
 * shown as notes, not as errors of a build that succeeds. */
static void print_refusals(const char *what, const char *text) {
  fprintf(stderr, " (in process) derivatives of the optimised copies refused; again, %s:\n", what);
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n'), *error = strstr(line, ": error: ");
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (error && error < line + len)
      fprintf(stderr, "%.*s: note: (in the copies) %.*s\n", (int)(error - line), line, (int)(line + len - error - 9), error + 9);
    else
      fprintf(stderr, "%.*s\n", (int)len, line);
    line = end ? end + 1 : NULL;
  }
}

int pipeline_run(const char *in_path, const char *out_path, PipelineOptions *o) {
  /* The optimised copies first (at -O0, or of the functions built at -O0 that an optimised program's
     requests reach). Where their derivatives are refused, the program as compiled:
     the optimiser turns a typed store or copy into one of integers, which clang types (TBAA) only when it
     optimises, so a task's priority or a std::function's state would be refused in the copies. */
  diag_capture_begin(false);
  int rc = run_without_failed_choices(in_path, out_path, o, true);
  bool failed = rc == PIPELINE_FAILED; /* after the copies were made: a bug of theirs */
  if (!o->made_copies || (rc != PIPELINE_REFUSED && !failed)) {
    diag_capture_release();
    forget_as_compiled(o);
    return rc;
  }
  char *first = diag_capture_drop();
  if (!failed && o->n_as_compiled) {
    /* the requests whose copies' derivatives were refused from the program as compiled, the others
       from their copies: one request's refusal no longer takes the copies from every other */
    if (o->verbose) print_refusals("the requests refused as compiled", first);
    diag_capture_begin(false);
    rc = run_without_failed_choices(in_path, out_path, o, true);
    if (rc != PIPELINE_REFUSED && rc != PIPELINE_FAILED) {
      diag_capture_release();
      forget_as_compiled(o);
      free(first);
      return rc;
    }
    failed = rc == PIPELINE_FAILED;
    free(diag_capture_drop());
  }
  forget_as_compiled(o);
  if (o->verbose) print_refusals("as compiled", first);
  /* the program still builds; the message above and this one say what to report (the fuzzer looks for them) */
  if (failed) fprintf(stderr, "parad-cc: warning: internal error in the optimised copies of code built at -O0 (a bug in Parad, "
                              "please report it); the file is differentiated as compiled instead\n");
  free(first);
  return run_without_failed_choices(in_path, out_path, o, false);
}
