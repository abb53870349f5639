/* OpenMP in reverse mode.
 *
 * A parallel region's forward sweep is a parallel region running the outlined function's augmented
 * function: each thread records on a tape of its own, under the region (runtime/omp.c). Its reverse
 * sweep forks a team of the same size, each thread running the reverse function on its own tape. The
 * pair is generated for a parallel context: adjoints of memory other threads may also reach are added
 * atomically (rev_memory.c).
 *
 * Inside a region: work-sharing and the like only chose which thread runs what, and each thread's tape
 * replays its choices; a barrier's adjoint is a barrier; critical sections are reversed one at a time,
 * in the opposite order (tickets, runtime/omp.c), reductions with them (omp_prepare.c). */
#include <stdlib.h>
#include <string.h>

#include "ad/checkpoint.h"
#include "ad/constants.h"
#include "ad/global_shadows.h"
#include "omp/omp.h"
#include "reverse/rev_internal.h"
#include "reverse/reverse.h"

static LLVMTypeRef void_type(RevGen *g) { return LLVMVoidTypeInContext(g->ctx); }
static LLVMTypeRef i32_type(RevGen *g) { return LLVMInt32TypeInContext(g->ctx); }

static void runtime_void(RevGen *g, LLVMBuilderRef b, const char *name, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef params[4];
  for (unsigned i = 0; i < n; i++) params[i] = LLVMTypeOf(args[i]);
  ir_call_named(b, name, LLVMFunctionType(void_type(g), params, n, 0), args, n);
}

/* The global thread number of the thread running the reverse sweep (not the forward sweep's: the
 * reverse team's threads need not be the same). */
static LLVMValueRef thread_number(RevGen *g, LLVMValueRef loc) {
  return ir_call_named(g->b, "__kmpc_global_thread_num", LLVMFunctionType(i32_type(g), &g->ptr_type, 1, 0), &loc, 1);
}

static void barrier(RevGen *g, LLVMValueRef loc, LLVMValueRef gtid) {
  LLVMValueRef args[2] = {loc, gtid};
  runtime_void(g, g->b, "__kmpc_barrier", args, 2);
}

/* ---- parallel regions ---- */

/* The pair's pattern: the thread ids constant, then the arguments after the outlined function: shared
 * data by address ('d' when active), firstprivate values by copy ('o' when they carry a float). */
static char *fork_pattern(RevGen *g, LLVMValueRef call) {
  unsigned n = ir_num_call_args(call), k = 0;
  char *p = xcalloc(n + 1, 1);
  for (unsigned i = 0; i < OMP_OUTLINED_FIRST_PARAM; i++) p[k++] = 'c';
  for (unsigned i = OMP_FORK_FIRST_ARG; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (ir_is_ptr(LLVMTypeOf(a)))
      p[k++] = activity_shadowed(g->act, a) ? 'd' : 'c';
    else
      p[k++] = activity_varied(g->act, a) && adj_type_of(g, a) ? 'o' : 'c';
  }
  return ad_mark_view_slots(g->act, call, p);
}

/* The pair of the region's outlined function, or false when nothing in it is active (or on error). */
static bool fork_pair(RevGen *g, LLVMValueRef call, char **pattern, RevPair *pair) {
  LLVMValueRef outlined = omp_fork_outlined(call);
  *pattern = NULL;
  if (!outlined) return false;
  *pattern = fork_pattern(g, call);
  if (!strpbrk(*pattern, "do") && !ad_call_reaches_active_global(call)) return false;
  PairKind kind = {.parallel = true, .region_body = true};
  rev_unwritten_args(g, call, outlined, OMP_FORK_FIRST_ARG, OMP_OUTLINED_FIRST_PARAM, &kind);
  if (rev_pair(g->ad, outlined, *pattern, kind, pair)) return true;
  g->errors++; /* the region's errors are reported; this pair cannot be right without it */
  return false;
}

/* The function a team runs: (gtid, btid, region, rest...) { before(region); fn(...); after(region) }, where
 * fn gets the thread ids and rest (an augmented function: its parameters after the ids), or nothing (a
 * reverse function: rest is then the address where each thread adds the adjoints fn returns). */
static LLVMValueRef team_function(RevGen *g, LLVMValueRef outlined, LLVMValueRef fn, const char *before, const char *after,
                                  bool pass_ids) {
  char *key = xasprintf("revteam|%s|%s", LLVMGetValueName(outlined), LLVMGetValueName(fn));
  LLVMValueRef w = ad_find_generated(g->ad, key);
  if (w) {
    free(key);
    return w;
  }
  unsigned np = LLVMCountParams(fn), skip = pass_ids ? OMP_OUTLINED_FIRST_PARAM : 0, n = 0;
  LLVMTypeRef result = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  bool sums = LLVMGetTypeKind(result) != LLVMVoidTypeKind;
  LLVMTypeRef *types = xcalloc(np + 4, sizeof *types);
  types[n++] = g->ptr_type; /* gtid */
  types[n++] = g->ptr_type; /* btid */
  types[n++] = g->ptr_type; /* region */
  for (unsigned p = skip; p < np; p++) types[n++] = LLVMTypeOf(LLVMGetParam(fn, p));
  if (sums) types[n++] = g->ptr_type;
  char *name = xasprintf("team.%s", LLVMGetValueName(fn));
  LLVMBuilderRef b;
  w = ad_add_generated(g->ad, key, name, LLVMFunctionType(void_type(g), types, n, 0), &b);
  free(name);
  free(types);
  free(key);
  LLVMValueRef region = LLVMGetParam(w, 2);
  runtime_void(g, b, before, &region, 1);
  LLVMValueRef *args = xcalloc(np + 1, sizeof *args);
  unsigned k = 0;
  if (pass_ids) {
    args[k++] = LLVMGetParam(w, 0);
    args[k++] = LLVMGetParam(w, 1);
  }
  for (unsigned p = skip; p < np; p++) args[k++] = LLVMGetParam(w, 3 + p - skip);
  LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, k, "");
  if (sums && !ir_atomic_fadd(b, LLVMGetParam(w, n - 1), r, 0))
    rev_error(g, NULL, "parad: internal error: a firstprivate value's adjoint has no atomic add");
  runtime_void(g, b, after, &region, 1);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  free(args);
  return w;
}

/* ---- quiet since the last region (omp_quiet_forks.c) ---- */

/* A call the walk back from a fork or a call may start at: its callee's forward sweep ends with a region. */
static bool chain_source(void *g, LLVMValueRef call) {
  return rev_call_augmented(g, call) && omp_ends_in_region(ir_called_function(call));
}

/* Whether the program wrote only locals since the last region, at `at`: 1, 0, or (from the entry) whether
 * the caller gave the chain. The locals must stay on the stack in the augmented function (the runtime
 * keeps copies of the stack out), not on the heap for a checkpoint. */
static LLVMValueRef quiet_at(RevGen *g, LLVMValueRef at) {
  ValueList locals = {0};
  OmpQuiet q = omp_quiet_before(at, chain_source, g, &locals);
  for (size_t k = 0; k < locals.len; k++)
    if (checkpoint_slot_outlives_frame(locals.data[k])) q = QUIET_NOT;
  vec_free(&locals);
  if (q == QUIET_FROM_ENTRY) return g->chain_open ? g->chain_open : LLVMConstInt(i32_type(g), 0, 0);
  return LLVMConstInt(i32_type(g), q == QUIET_FROM_REGION, 0);
}

/* aug: the region's record (runtime/omp.c), told whether the program wrote nothing but locals since the
 * region forked before. */
static LLVMValueRef region_begin(RevGen *g, LLVMValueRef call) {
  LLVMValueRef quiet = quiet_at(g, call);
  LLVMTypeRef i32 = i32_type(g);
  return ir_call_named(g->b, "__parad_rt_region_begin", LLVMFunctionType(g->ptr_type, &i32, 1, 0), &quiet, 1);
}

/* The chain's key for function fn: a global of its own, not fn's address (taking it would tell the
 * optimiser the function may be called from elsewhere). */
static LLVMValueRef chain_key(RevGen *g, LLVMValueRef fn) {
  char *name = xasprintf("parad.chain.%s", LLVMGetValueName(fn));
  LLVMValueRef key = LLVMGetNamedGlobal(g->ad->mod, name);
  if (!key) {
    LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
    key = LLVMAddGlobal(g->ad->mod, i8, name);
    LLVMSetInitializer(key, LLVMConstInt(i8, 0, 0));
    LLVMSetLinkage(key, LLVMInternalLinkage);
  }
  free(name);
  return key;
}

static void chain_give(RevGen *g, LLVMValueRef key, LLVMValueRef open) {
  LLVMValueRef args[2] = {key, open};
  LLVMTypeRef params[2] = {g->ptr_type, i32_type(g)};
  ir_call_named(g->b, "__parad_rt_chain_give", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 2, 0), args, 2);
}

bool omp_chain_give(RevGen *g, LLVMValueRef call) {
  LLVMValueRef callee = ir_called_function(call);
  if (!omp_takes_chain(callee)) return false;
  chain_give(g, chain_key(g, callee), quiet_at(g, call));
  return true;
}

void omp_chain_given(RevGen *g) { chain_give(g, LLVMConstNull(g->ptr_type), LLVMConstInt(i32_type(g), 0, 0)); }

/* Keyed by the original function: every augmented function made of it takes the chain alike, since
 * omp_takes_chain reads only its IR. */
void omp_chain_take(RevGen *g) {
  g->chain_open = NULL;
  if (!omp_takes_chain(g->orig)) return;
  LLVMTypeRef i32 = i32_type(g);
  LLVMValueRef key = chain_key(g, g->orig);
  g->chain_open = ir_call_named(g->b, "__parad_rt_chain_take", LLVMFunctionType(i32, &g->ptr_type, 1, 0), &key, 1);
}

static void aug_fork(RevGen *g, LLVMValueRef call) {
  char *pattern;
  RevPair pair;
  if (!fork_pair(g, call, &pattern, &pair)) {
    free(pattern);
    runtime_void(g, g->b, "__parad_rt_region_untracked", NULL, 0);
    aug_clone(g, call);
    return;
  }
  LLVMValueRef team = team_function(g, omp_fork_outlined(call), pair.aug, "__parad_rt_region_enter", "__parad_rt_region_leave", true);
  LLVMValueRef region = region_begin(g, call);
  unsigned n = ir_num_call_args(call), k = 0;
  LLVMValueRef *args = xcalloc(2 * n + 2, sizeof *args);
  args[k++] = aug_value(g, LLVMGetArgOperand(call, 0));
  args[k++] = NULL; /* the count, once known */
  args[k++] = team;
  args[k++] = region;
  for (unsigned i = OMP_FORK_FIRST_ARG; i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    args[k++] = aug_value(g, a);
    if (pattern[i - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM] == 'd') args[k++] = aug_shadow(g, a, call, "this parallel region");
  }
  args[1] = LLVMConstInt(i32_type(g), k - OMP_FORK_FIRST_ARG, 0);
  LLVMValueRef fork_fn = ir_called_function(call);
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fork_fn), fork_fn, args, k, "");
  vmap_put(&g->tapemap, call, region);
  free(args);
  free(pattern);
}

static void rev_fork(RevGen *g, LLVMValueRef call) {
  char *pattern;
  RevPair pair;
  if (!fork_pair(g, call, &pattern, &pair)) {
    free(pattern);
    return;
  }
  LLVMValueRef team = team_function(g, omp_fork_outlined(call), pair.rev, "__parad_rt_region_resume", "__parad_rt_region_finish", false);
  LLVMValueRef region = rt(g, call), loc = LLVMGetArgOperand(call, 0);
  LLVMValueRef size = ir_call_named(g->b, "__parad_rt_region_reverse_begin",
                                    LLVMFunctionType(i32_type(g), &g->ptr_type, 1, 0), &region, 1);
  LLVMValueRef push[3] = {loc, thread_number(g, loc), size};
  runtime_void(g, g->b, "__kmpc_push_num_threads", push, 3);
  /* the adjoints of firstprivate values: every thread's copy adds into one sum */
  LLVMTypeRef sum_type = LLVMGetReturnType(LLVMGlobalGetValueType(pair.rev));
  bool sums = LLVMGetTypeKind(sum_type) != LLVMVoidTypeKind;
  LLVMValueRef sum = NULL;
  if (sums) {
    sum = ir_entry_alloca(LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b)), sum_type, "firstprivate.adjoints");
    LLVMBuildStore(g->b, LLVMConstNull(sum_type), sum);
  }
  LLVMValueRef fork_fn = ir_called_function(call);
  LLVMValueRef args[5] = {loc, LLVMConstInt(i32_type(g), sums ? 2 : 1, 0), team, region, sum};
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fork_fn), fork_fn, args, sums ? 5 : 4, "");
  if (!sums) {
    free(pattern);
    return;
  }
  LLVMValueRef total = LLVMBuildLoad2(g->b, sum_type, sum, "");
  unsigned outs = 0, k = 0, n = ir_num_call_args(call);
  for (const char *p = pattern; *p; p++) outs += *p == 'o';
  for (unsigned i = OMP_FORK_FIRST_ARG; i < n; i++) {
    if (pattern[i - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM] != 'o') continue;
    LLVMValueRef a = LLVMGetArgOperand(call, i), d = outs == 1 ? total : LLVMBuildExtractValue(g->b, total, k++, "");
    LLVMTypeRef at = adj_type_of(g, a);
    adj_add(g, a, LLVMTypeOf(d) == at ? d : LLVMBuildBitCast(g->b, d, at, ""));
  }
  free(pattern);
}

/* ---- tasks ----
 * The block gets a shadow, as in forward mode, and a word more, at `at`, for the task's record
 * (runtime/omp.c: the shadow and the task's own tape). The runtime runs a wrapper of the entry's
 * augmented function that records on that tape; the creating code records the record on its own tape.
 * The adjoint of the spawn runs the task's reverse sweep: as a task with the dependences turned round
 * where the creating code only creates tasks (adjoint_tasks), else inline on the creating thread, in the
 * opposite order of creation, which the reversed dependences allow. The adjoint of the allocation
 * releases the record, after the adjoints of what the creating code copied into the block have been read
 * from its shadow. A task loop's chunks get records of their own through libomp's copy function. Task
 * pairs add into shared memory atomically (tasks of several creators, or adjoint tasks, run at once), and a
 * region that creates tasks gives no thread a part of its own (rev_shared.c). */

/* The pair of a task's entry, (gtid, task) -> i32, and where its record goes in the block; false when the
 * task carries no derivative (or is refused). */
static bool task_pair(RevGen *g, LLVMValueRef alloc, RevPair *pair, unsigned long long *at) {
  if (!activity_shadowed(g->act, alloc)) return false;
  LLVMValueRef entry = omp_task_entry(alloc), size = LLVMGetArgOperand(alloc, OMP_TASK_SIZE_ARG);
  LLVMValueRef flags = LLVMGetArgOperand(alloc, OMP_TASK_FLAGS_ARG);
  if (!entry || !LLVMIsAConstantInt(size) || (omp_task_flags(flags, false) & (OMP_TASK_DESTRUCTORS | OMP_TASK_DETACHABLE)) ||
      !(omp_task_flags(flags, true) & OMP_TASK_TIED)) {
    if (g->phase == WRITING_AUG) /* once */
      rev_error(g, alloc, "reverse mode cannot differentiate this task: its body is not in the program, it is "
                          "detachable, its private copies have destructors, or it is untied and not as clang cuts "
                          "untied tasks");
    return false;
  }
  *at = (LLVMConstIntGetZExtValue(size) + 7) & ~7ull;
  PairKind kind = {.parallel = true, .task_body = true};
  char *pattern = ad_mark_task_views(g->act, alloc, xstrdup("cd"));
  bool made = rev_pair(g->ad, entry, pattern, kind, pair);
  free(pattern);
  if (made) return true;
  g->errors++; /* the task's errors are reported */
  return false;
}

/* The block's record, at byte `at`. */
static LLVMValueRef task_record(RevGen *g, LLVMBuilderRef b, LLVMValueRef task, unsigned long long at) {
  LLVMValueRef off = LLVMConstInt(g->i64, at, 0);
  return LLVMBuildLoad2(b, g->ptr_type, LLVMBuildGEP2(b, LLVMInt8TypeInContext(g->ctx), task, &off, 1, ""), "task.record");
}

/* (gtid, task) -> i32, run by libomp: the augmented entry on a tape of the task's own. */
/* A task entry (gtid, task) -> i32 named after fn, remembered under key (freed here): NULL and *f set
 * when it exists, else a builder at its entry. */
static LLVMBuilderRef task_entry(RevGen *g, char *key, LLVMValueRef fn, LLVMValueRef *f) {
  if ((*f = ad_find_generated(g->ad, key))) {
    free(key);
    return NULL;
  }
  LLVMTypeRef params[2] = {i32_type(g), g->ptr_type};
  char *name = xasprintf("task.%s", LLVMGetValueName(fn));
  LLVMBuilderRef b;
  *f = ad_add_generated(g->ad, key, name, LLVMFunctionType(i32_type(g), params, 2, 0), &b);
  free(name);
  free(key);
  return b;
}

static LLVMValueRef task_wrapper(RevGen *g, LLVMValueRef aug, unsigned long long at) {
  LLVMValueRef f;
  LLVMBuilderRef b = task_entry(g, xasprintf("revtask|aug|%s|%llu", LLVMGetValueName(aug), at), aug, &f);
  if (!b) return f;
  LLVMValueRef task = LLVMGetParam(f, 1), record = task_record(g, b, task, at);
  LLVMValueRef shadow = ir_call_named(b, "__parad_rt_task_record_shadow", LLVMFunctionType(g->ptr_type, &g->ptr_type, 1, 0), &record, 1);
  runtime_void(g, b, "__parad_rt_task_begin", &record, 1);
  LLVMValueRef args[3] = {LLVMGetParam(f, 0), task, shadow};
  LLVMValueRef r = LLVMBuildCall2(b, LLVMGlobalGetValueType(aug), aug, args, 3, "");
  runtime_void(g, b, "__parad_rt_task_suspend", &record, 1);
  LLVMBuildRet(b, r);
  LLVMDisposeBuilder(b);
  return f;
}

/* Whether the function's reverse sweep does nothing with adjoints but through its tasks (it only creates
 * them: a single construct feeding a task graph). Then the adjoint of each task is a task, spawned with
 * the dependences turned round, so that independent ones run at once, and the reverse sweep waits for
 * them where it gives back a stack slot's shadow and at its end. Otherwise each task's reverse sweep runs where its spawn's adjoint is, one after the
 * other: the creating code's adjoints of what it computed before a spawn need the task's done. */
static bool adjoint_tasks_uncached(RevGen *g) {
  if (g->ret_active) return false;
  bool spawns = false;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->orig); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef t = LLVMTypeOf(i);
      if (LLVMGetTypeKind(t) != LLVMVoidTypeKind && !ir_is_ptr(t) && activity_active(g->act, i) && !ir_is_call_site(i))
        return false; /* arithmetic on active values, or a load of one */
      if (LLVMIsAStoreInst(i) && !ir_is_ptr(LLVMTypeOf(LLVMGetOperand(i, 0))) && activity_active(g->act, LLVMGetOperand(i, 0)))
        return false;
      if ((LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i)) && activity_shadowed(g->act, LLVMGetOperand(i, 0)))
        return false;
      if (!ir_is_call_site(i)) continue;
      CallKind kind = call_classify(i, NULL);
      if (kind == CALL_DEBUG || kind == CALL_INACTIVE) continue;
      if (kind == CALL_OMP) {
        OmpKind k = omp_classify(i);
        if (k == OMP_TASK_ALLOC) spawns |= activity_shadowed(g->act, i);
        if (k == OMP_TASK_ALLOC || k == OMP_TASK_SPAWN || k == OMP_TASK_WAIT || k == OMP_SCHEDULE || k == OMP_BARRIER) continue;
      }
      if (activity_any_active_argument(g->act, i, NULL) || (ir_is_ptr(t) ? activity_shadowed(g->act, i) : activity_active(g->act, i)))
        return false;
    }
  return spawns;
}

static bool adjoint_tasks(RevGen *g) {
  if (!g->defers_tasks) g->defers_tasks = adjoint_tasks_uncached(g) ? 2 : 1;
  return g->defers_tasks == 2;
}

static void aug_task_alloc(RevGen *g, LLVMValueRef call) {
  RevPair pair;
  unsigned long long at;
  LLVMValueRef nc = aug_clone(g, call);
  if (!task_pair(g, call, &pair, &at)) return;
  LLVMSetOperand(nc, OMP_TASK_SIZE_ARG, LLVMConstInt(g->i64, at + 8, 0));
  LLVMSetOperand(nc, OMP_TASK_ENTRY_ARG, task_wrapper(g, pair.aug, at));
  LLVMTypeRef params[3] = {g->i64, g->i64, g->i64};
  LLVMValueRef args[3] = {LLVMConstInt(g->i64, at, 0), aug_value(g, LLVMGetArgOperand(call, OMP_TASK_SHAREDS_ARG)),
                          LLVMConstInt(g->i64, omp_task_header_bytes(call), 0)};
  LLVMValueRef shadow = ir_call_named(g->b, "__parad_rt_task_shadow", LLVMFunctionType(g->ptr_type, params, 3, 0), args, 3);
  LLVMValueRef record = ir_call_named(g->b, "__parad_rt_task_record", LLVMFunctionType(g->ptr_type, &g->ptr_type, 1, 0), &shadow, 1);
  LLVMValueRef off = LLVMConstInt(g->i64, at, 0);
  LLVMBuildStore(g->b, record, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), nc, &off, 1, ""));
  vmap_put(&g->smap, call, shadow);
  vmap_put(&g->tapemap, call, record);
}

/* The allocation a deferred spawn spawns, when its task carries derivatives; NULL for the spawns that do
 * not defer (if(0): the creating code calls the entry itself, and reverses it inline). */
static LLVMValueRef spawned(RevGen *g, LLVMValueRef call, RevPair *pair, unsigned long long *at) {
  const char *name = ir_called_name(call);
  if (strcmp(name, "__kmpc_omp_task") && strcmp(name, "__kmpc_omp_task_with_deps")) return NULL;
  LLVMValueRef alloc = omp_task_alloc_of(LLVMGetArgOperand(call, 2));
  if (!alloc) {
    if (g->phase == WRITING_AUG && activity_shadowed(g->act, LLVMGetArgOperand(call, 2)))
      rev_error(g, call, "reverse mode cannot tell which task this spawns");
    return NULL;
  }
  return task_pair(g, alloc, pair, at) ? alloc : NULL;
}

/* (dst, src, lastpriv) -> void: libomp's completion of a task loop chunk's copy of the block (dup, or
 * null), then a record of the chunk's own, noted in the loop's. */
static LLVMValueRef chunk_copy_function(RevGen *g, LLVMValueRef dup, unsigned long long at) {
  char *key = xasprintf("revtask|copy|%s|%llu", dup ? LLVMGetValueName(dup) : "", at);
  LLVMValueRef f = ad_find_generated(g->ad, key);
  if (f) {
    free(key);
    return f;
  }
  LLVMTypeRef params[3] = {g->ptr_type, g->ptr_type, i32_type(g)};
  LLVMBuilderRef b;
  f = ad_add_generated(g->ad, key, "task.copy", LLVMFunctionType(void_type(g), params, 3, 0), &b);
  free(key);
  LLVMValueRef dst = LLVMGetParam(f, 0), src = LLVMGetParam(f, 1), args[3] = {dst, src, LLVMGetParam(f, 2)};
  if (dup) LLVMBuildCall2(b, LLVMGlobalGetValueType(dup), dup, args, 3, "");
  LLVMValueRef loop = task_record(g, b, src, at);
  LLVMValueRef chunk = ir_call_named(b, "__parad_rt_task_record_chunk", LLVMFunctionType(g->ptr_type, &g->ptr_type, 1, 0), &loop, 1);
  LLVMValueRef off = LLVMConstInt(g->i64, at, 0);
  LLVMBuildStore(b, chunk, LLVMBuildGEP2(b, LLVMInt8TypeInContext(g->ctx), dst, &off, 1, ""));
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

/* The task a task loop copies per chunk, when it carries derivatives. */
static LLVMValueRef looped(RevGen *g, LLVMValueRef call, RevPair *pair, unsigned long long *at, LLVMValueRef *dup) {
  LLVMValueRef alloc = omp_task_alloc_of(LLVMGetArgOperand(call, 2));
  if (!alloc) {
    if (g->phase == WRITING_AUG && activity_shadowed(g->act, LLVMGetArgOperand(call, 2)))
      rev_error(g, call, "reverse mode cannot tell which task this task loop copies");
    return NULL;
  }
  *dup = ir_strip_pointer_casts(LLVMGetArgOperand(call, (unsigned)omp_taskloop_dup_arg(call)));
  if (!task_pair(g, alloc, pair, at)) return NULL;
  if (!LLVMIsAFunction(*dup) && !LLVMIsAConstantPointerNull(*dup)) {
    if (g->phase == WRITING_AUG) rev_error(g, call, "reverse mode cannot tell how this task loop copies its task");
    return NULL;
  }
  if (!LLVMIsAFunction(*dup)) *dup = NULL;
  return alloc;
}

/* Forward sweep: a spawn with dependences notes them in the record, for its adjoint task; a task loop's
 * chunks get records of their own. */
static void aug_task_spawn(RevGen *g, LLVMValueRef call) {
  RevPair pair;
  unsigned long long at;
  if (omp_taskloop_dup_arg(call) >= 0) {
    LLVMValueRef dup, nc = aug_clone(g, call);
    if (looped(g, call, &pair, &at, &dup))
      LLVMSetOperand(nc, (unsigned)omp_taskloop_dup_arg(call), chunk_copy_function(g, dup, at));
    return;
  }
  LLVMValueRef alloc = spawned(g, call, &pair, &at);
  unsigned unordered = LLVMGetMDKindIDInContext(g->ctx, OMP_UNORDERED_DEPS, (unsigned)strlen(OMP_UNORDERED_DEPS));
  if (alloc && LLVMGetMetadata(call, unordered))
    rev_error(g, call, "reverse mode cannot differentiate a task with depend(inoutset): such tasks run in an "
                       "order the dependences do not fix, and the reverse sweep needs it");
  if (alloc && ir_num_call_args(call) >= 5) { /* for the adjoint task, and the task's inputs (rev_shared.c) */
    /* quiet: the region's own function, doing nothing with adjoints but through its tasks, reversed as
       adjoint tasks (runtime/omp.c: readers' adjoints, one at a time) */
    LLVMValueRef quiet = LLVMConstInt(LLVMInt32TypeInContext(g->ctx), g->region_body && adjoint_tasks(g), 0);
    LLVMValueRef args[4] = {task_record(g, g->b, aug_value(g, alloc), at), aug_value(g, LLVMGetArgOperand(call, 3)),
                            aug_value(g, LLVMGetArgOperand(call, 4)), quiet};
    runtime_void(g, g->b, "__parad_rt_task_note_deps", args, 4);
  }
  aug_clone(g, call);
}

/* (gtid, task) -> i32: an adjoint task, the reverse function rev on its record's tape. */
static LLVMValueRef adjoint_task(RevGen *g, LLVMValueRef rev) {
  LLVMValueRef f;
  LLVMBuilderRef b = task_entry(g, xasprintf("revtask|rev|%s", LLVMGetValueName(rev)), rev, &f);
  if (!b) return f;
  LLVMValueRef task = LLVMGetParam(f, 1);
  LLVMValueRef record = ir_call_named(b, "__parad_rt_task_adjoint_record", LLVMFunctionType(g->ptr_type, &g->ptr_type, 1, 0), &task, 1);
  runtime_void(g, b, "__parad_rt_task_resume", &record, 1);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(rev), rev, NULL, 0, "");
  runtime_void(g, b, "__parad_rt_task_end", &record, 1);
  runtime_void(g, b, "__parad_rt_task_record_release", &record, 1);
  LLVMBuildRet(b, LLVMConstInt(i32_type(g), 0, 0));
  LLVMDisposeBuilder(b);
  return f;
}

/* The adjoint of a spawn: the task's reverse sweep on its tape, as a task or at once (adjoint_tasks). */
static void rev_task_spawn(RevGen *g, LLVMValueRef call) {
  RevPair pair;
  unsigned long long at;
  if (omp_taskloop_dup_arg(call) >= 0) { /* its chunks, on their records */
    LLVMValueRef dup, alloc = looped(g, call, &pair, &at, &dup);
    if (!alloc) return;
    LLVMValueRef record = rt(g, alloc);
    if (adjoint_tasks(g)) {
      LLVMValueRef args[3] = {LLVMGetArgOperand(call, 0), record, adjoint_task(g, pair.rev)};
      runtime_void(g, g->b, "__parad_rt_taskloop_spawn_adjoints", args, 3);
    } else {
      LLVMValueRef args[2] = {record, pair.rev};
      runtime_void(g, g->b, "__parad_rt_taskloop_reverse", args, 2);
    }
    return;
  }
  LLVMValueRef alloc = spawned(g, call, &pair, &at);
  if (!alloc) return;
  LLVMValueRef record = rt(g, alloc);
  if (adjoint_tasks(g)) {
    LLVMValueRef args[3] = {LLVMGetArgOperand(call, 0), record, adjoint_task(g, pair.rev)};
    runtime_void(g, g->b, "__parad_rt_task_spawn_adjoint", args, 3);
    return;
  }
  runtime_void(g, g->b, "__parad_rt_task_resume", &record, 1);
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(pair.rev), pair.rev, NULL, 0, "");
  runtime_void(g, g->b, "__parad_rt_task_end", &record, 1);
}

static void rev_task_alloc(RevGen *g, LLVMValueRef call) {
  RevPair pair;
  unsigned long long at;
  if (!task_pair(g, call, &pair, &at)) return;
  LLVMValueRef record = rt(g, call);
  runtime_void(g, g->b, "__parad_rt_task_record_release", &record, 1);
}

void rev_omp_wait_adjoint_tasks(RevGen *g) {
  if (!adjoint_tasks(g)) return;
  LLVMValueRef loc = LLVMConstNull(g->ptr_type);
  runtime_void(g, g->b, "__parad_rt_task_wait_adjoints", &loc, 1);
}

/* ---- synchronisation ---- */

/* Forward sweep: the lock of a critical section or reduction taken, or about to be released. */
static void note_lock(RevGen *g, LLVMValueRef call, const char *what) {
  LLVMValueRef lock = aug_value(g, omp_lock(call));
  runtime_void(g, g->b, what, &lock, 1);
}

/* ---- copyprivate (omp_copyprivate.c) ---- */

/* Whether a variable of the list holds pointers (their shadows go to the team in the forward sweep). */
static bool holds_pointers(LLVMValueRef v) {
  v = ir_strip_pointer_casts(v);
  return !LLVMIsAAllocaInst(v) || ir_is_ptr(LLVMGetAllocatedType(v));
}

/* A list of n pointers in the entry block of the function being written, element k set to at[k]. */
static LLVMValueRef pointer_list(RevGen *g, LLVMValueRef *at, size_t n) {
  LLVMValueRef list = ir_entry_alloca(LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b)), LLVMArrayType2(g->ptr_type, n), "copyprivate.shadows");
  for (size_t k = 0; k < n; k++) {
    LLVMValueRef off = LLVMConstInt(g->i64, 8 * k, 0);
    LLVMBuildStore(g->b, at[k], LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), list, &off, 1, ""));
  }
  return list;
}

/* The call again, with another list and copy function. */
static void copyprivate_again(RevGen *g, LLVMValueRef call, LLVMValueRef gtid, LLVMValueRef list, LLVMValueRef copy, LLVMValueRef didit) {
  LLVMValueRef args[6] = {LLVMGetArgOperand(call, 0), gtid, LLVMGetArgOperand(call, 2), list, copy, didit};
  LLVMBuildCall2(g->b, LLVMGetCalledFunctionType(call), LLVMGetCalledValue(call), args, 6, "");
}

/* Forward sweep: the values, then the shadows of pointers the same way (adjoints of floats are all zero
 * now: nothing to move). */
static void aug_copyprivate(RevGen *g, LLVMValueRef call) {
  LLVMValueRef nc = aug_clone(g, call);
  ValueList elems = {0};
  bool listed = omp_copyprivate_list(call, &elems), pointers = false;
  bool *has_shadow = xcalloc(elems.len + 1, sizeof *has_shadow);
  for (size_t k = 0; listed && k < elems.len; k++) {
    has_shadow[k] = activity_shadowed(g->act, elems.data[k]);
    pointers |= has_shadow[k] && holds_pointers(elems.data[k]);
  }
  const char *why = NULL;
  if (!listed && activity_any_active_argument(g->act, call, NULL))
    rev_error(g, call, "cannot differentiate this copyprivate: its list of variables is not as clang builds it");
  else if (listed && g->phase == WRITING_AUG && !omp_copyprivate_reversible(&elems, has_shadow, &why))
    rev_error(g, call, "%s", why);
  if (pointers) {
    LLVMValueRef *at = xcalloc(elems.len, sizeof *at);
    for (size_t k = 0; k < elems.len; k++)
      at[k] = has_shadow[k] ? aug_shadow(g, elems.data[k], call, "this copyprivate") : aug_value(g, elems.data[k]);
    copyprivate_again(g, call, LLVMGetArgOperand(nc, 1), pointer_list(g, at, elems.len), LLVMGetArgOperand(nc, OMP_COPYPRIVATE_COPY_ARG),
                      LLVMGetArgOperand(nc, 5));
    free(at);
  }
  free(has_shadow);
  vec_free(&elems);
}

/* Reverse sweep: every other thread adds its adjoints of the variables into the publishing thread's. */
static void rev_copyprivate(RevGen *g, LLVMValueRef call) {
  ValueList elems = {0};
  if (!omp_copyprivate_list(call, &elems)) return; /* refused */
  bool *has_shadow = xcalloc(elems.len + 1, sizeof *has_shadow), floats = false;
  LLVMValueRef *at = xcalloc(elems.len, sizeof *at);
  for (size_t k = 0; k < elems.len; k++) {
    has_shadow[k] = activity_shadowed(g->act, elems.data[k]) && !holds_pointers(elems.data[k]);
    floats |= has_shadow[k];
    at[k] = has_shadow[k] ? rs(g, elems.data[k]) : LLVMConstNull(g->ptr_type);
  }
  const char *why;
  if (floats && omp_copyprivate_reversible(&elems, has_shadow, &why)) {
    LLVMValueRef adjoint = g->phase == PLANNING ? LLVMConstNull(g->ptr_type) : omp_copyprivate_adjoint(g->ad->mod, &elems, has_shadow);
    copyprivate_again(g, call, rv(g, LLVMGetArgOperand(call, 1)), pointer_list(g, at, elems.len), adjoint,
                      rv(g, LLVMGetArgOperand(call, 5)));
  }
  free(at);
  free(has_shadow);
  vec_free(&elems);
}

void aug_omp(RevGen *g, LLVMValueRef call) {
  OmpKind kind = omp_classify(call);
  switch (kind) {
  case OMP_FORK: aug_fork(g, call); return;
  case OMP_CRITICAL:
    aug_clone(g, call);
    note_lock(g, call, "__parad_rt_critical_entered");
    if (omp_critical_order_matters(call)) note_lock(g, call, "__parad_rt_critical_overwrites");
    return;
  case OMP_END_CRITICAL:
    note_lock(g, call, "__parad_rt_critical_leaving");
    aug_clone(g, call);
    return;
  case OMP_ORDERED: /* a critical section entered in the iterations' order: its tickets reverse it */
    if (!strcmp(ir_called_name(call), "__kmpc_ordered")) {
      aug_clone(g, call);
      note_lock(g, call, "__parad_rt_critical_entered");
    } else {
      note_lock(g, call, "__parad_rt_critical_leaving");
      aug_clone(g, call);
    }
    return;
  case OMP_TASK_ALLOC: aug_task_alloc(g, call); return;
  case OMP_TASK_SPAWN: aug_task_spawn(g, call); return;
  case OMP_COPYPRIVATE: aug_copyprivate(g, call); return;
  case OMP_REDUCE:
  case OMP_END_REDUCE:
  case OMP_UNSUPPORTED:
    rev_error(g, call, OMP_UNSUPPORTED_MESSAGE, ir_called_name(call), omp_unsupported_reason(call));
    aug_clone(g, call);
    return;
  default: aug_clone(g, call); return;
  }
}

void rev_omp(RevGen *g, LLVMValueRef call) {
  OmpKind kind = omp_classify(call);
  switch (kind) {
  case OMP_FORK: rev_fork(g, call); return;
  case OMP_BARRIER: {
    LLVMValueRef loc = LLVMGetArgOperand(call, 0);
    shared_flush(g, false); /* the other side of the barrier may read them */
    barrier(g, loc, thread_number(g, loc));
    return;
  }
  case OMP_END_CRITICAL:
  case OMP_CRITICAL:
  case OMP_ORDERED: { /* the lock, and whether it is an omp_lock_t (else a critical section's name) */
    bool lock_api = !strncmp(ir_called_name(call), "omp_", 4),
         end = kind == OMP_END_CRITICAL || !strcmp(ir_called_name(call), "__kmpc_end_ordered");
    LLVMValueRef args[2] = {rv(g, omp_lock(call)), LLVMConstInt(LLVMInt32TypeInContext(g->ctx), lock_api, 0)};
    runtime_void(g, g->b, end ? "__parad_rt_critical_reverse_enter" : "__parad_rt_critical_reverse_exit", args, 2);
    return;
  }
  case OMP_TASK_SPAWN: rev_task_spawn(g, call); return;
  case OMP_TASK_ALLOC: rev_task_alloc(g, call); return;
  case OMP_COPYPRIVATE: rev_copyprivate(g, call); return;
  case OMP_TASK_WAIT: /* a wait's adjoint is a wait: tasks created after it read what those before wrote */
    if (adjoint_tasks(g)) {
      LLVMValueRef loc = LLVMGetArgOperand(call, 0);
      runtime_void(g, g->b, "__parad_rt_task_wait_adjoints", &loc, 1);
    }
    return;
  default: return;
  }
}
