/* Which libomp entry point a call is (see omp.h). */
#include "omp/omp.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "ir/cfg.h"
#include "ir/ir.h"

static const char *const schedule_calls[] = {
    "__kmpc_for_static_init_4", "__kmpc_for_static_init_4u", "__kmpc_for_static_init_8",
    "__kmpc_for_static_init_8u", "__kmpc_for_static_fini", "__kmpc_dispatch_init_4", "__kmpc_dispatch_init_4u",
    "__kmpc_dispatch_init_8", "__kmpc_dispatch_init_8u", "__kmpc_dispatch_next_4", "__kmpc_dispatch_next_4u",
    "__kmpc_dispatch_next_8", "__kmpc_dispatch_next_8u", "__kmpc_dispatch_fini_4", "__kmpc_dispatch_fini_4u",
    "__kmpc_dispatch_fini_8", "__kmpc_dispatch_fini_8u", "__kmpc_dispatch_deinit", "__kmpc_push_num_threads",
    "__kmpc_push_proc_bind", "__kmpc_global_thread_num", "__kmpc_master", "__kmpc_end_master", "__kmpc_masked",
    "__kmpc_end_masked", "__kmpc_single", "__kmpc_end_single", "__kmpc_flush", "__kmpc_serialized_parallel",
    "__kmpc_end_serialized_parallel", "__kmpc_ok_to_fork", "omp_init_lock", "omp_destroy_lock",
    /* registering a task reduction: its private copies carry no data once the tasks' are their own
       (omp_task_reductions.c); a copy still asked for is refused at __kmpc_task_reduction_get_th_data */
    "__kmpc_taskred_init", "__kmpc_task_reduction_init",
    NULL,
};

static const char *const task_spawn_calls[] = {
    "__kmpc_omp_task", "__kmpc_omp_task_with_deps", "__kmpc_omp_task_begin_if0", "__kmpc_omp_task_complete_if0",
    "__kmpc_taskloop", "__kmpc_taskloop_5", NULL,
};

static const char *const task_wait_calls[] = {
    "__kmpc_omp_taskwait", "__kmpc_omp_taskwait_deps_51", "__kmpc_omp_wait_deps", "__kmpc_taskgroup",
    "__kmpc_end_taskgroup", "__kmpc_omp_taskyield",
    /* a parallel region's reduction(task, ...) opens and closes a task group */
    "__kmpc_taskred_modifier_init", "__kmpc_task_reduction_modifier_init", "__kmpc_task_reduction_modifier_fini", NULL,
};

/* Entry points that write none of the program's memory but the thread's own and order no threads: a
 * thread's number, the team's size, a static schedule's bounds. */
static const char *const quiet_calls[] = {
    "__kmpc_global_thread_num", "omp_get_thread_num", "omp_get_num_threads", "__kmpc_for_static_init_4",
    "__kmpc_for_static_init_4u", "__kmpc_for_static_init_8", "__kmpc_for_static_init_8u", "__kmpc_for_static_fini",
    "__kmpc_push_num_threads", "__kmpc_push_proc_bind", NULL,
};

static bool listed(const char *name, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(name, *list)) return true;
  return false;
}

bool omp_is_runtime_call(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  return !strncmp(name, "__kmpc_", 7) || !strcmp(name, "omp_set_lock") || !strcmp(name, "omp_unset_lock") ||
         !strcmp(name, "omp_init_lock") || !strcmp(name, "omp_destroy_lock") || !strcmp(name, "omp_test_lock");
}

bool omp_is_quiet(LLVMValueRef call) { return listed(ir_called_name(call), quiet_calls); }

OmpKind omp_classify(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  if (!strcmp(name, "__kmpc_fork_call")) return OMP_FORK;
  if (!strcmp(name, "__kmpc_barrier")) return OMP_BARRIER;
  if (!strcmp(name, "__kmpc_critical") || !strcmp(name, "__kmpc_critical_with_hint") || !strcmp(name, "omp_set_lock"))
    return OMP_CRITICAL;
  if (!strcmp(name, "__kmpc_end_critical") || !strcmp(name, "omp_unset_lock")) return OMP_END_CRITICAL;
  if (!strcmp(name, "__kmpc_reduce") || !strcmp(name, "__kmpc_reduce_nowait")) return OMP_REDUCE;
  if (!strcmp(name, "__kmpc_end_reduce") || !strcmp(name, "__kmpc_end_reduce_nowait")) return OMP_END_REDUCE;
  if (!strcmp(name, "__kmpc_ordered") || !strcmp(name, "__kmpc_end_ordered")) return OMP_ORDERED;
  if (listed(name, schedule_calls)) return OMP_SCHEDULE;
  if (!strcmp(name, "__kmpc_omp_task_alloc")) return OMP_TASK_ALLOC;
  if (listed(name, task_spawn_calls)) return OMP_TASK_SPAWN;
  if (listed(name, task_wait_calls)) return OMP_TASK_WAIT;
  if (!strcmp(name, "__kmpc_copyprivate")) return OMP_COPYPRIVATE;
  return OMP_UNSUPPORTED;
}

const char *omp_unsupported_reason(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  if (strstr(name, "teams") || !strncmp(name, "__tgt_", 6))
    return "teams and target regions (offloading) are not supported; a parallel region is";
  if (strstr(name, "doacross")) return "loops with ordered(n) and depend(sink/source) (doacross) are not supported";
  if (strstr(name, "task_reduction") || strstr(name, "taskred"))
    return "task reductions other than sums of scalars and the like are not supported";
  return "Parad does not know this entry point of the OpenMP runtime";
}

bool omp_is_dispatch_next(LLVMValueRef call) { return !strncmp(ir_called_name(call), "__kmpc_dispatch_next_", 21); }

/* libomp's sched_type: kmp_sch_static_chunked, and the bits of the monotonic and nonmonotonic modifiers */
enum { SCHEDULE_STATIC_CHUNKED = 33, SCHEDULE_MODIFIERS = 3u << 29 };

bool omp_is_static_chunked_init(LLVMValueRef call) {
  if (strncmp(ir_called_name(call), "__kmpc_for_static_init_", 23) || ir_num_call_args(call) < 3) return false;
  LLVMValueRef kind = LLVMGetArgOperand(call, 2);
  return LLVMIsAConstantInt(kind) && (LLVMConstIntGetZExtValue(kind) & ~(unsigned long long)SCHEDULE_MODIFIERS) == SCHEDULE_STATIC_CHUNKED;
}

/* kmp_sch_static; the init's arguments (loc, gtid, schedule, last, lower, upper, stride, step, chunk) */
enum { SCHEDULE_STATIC = 34, STATIC_INIT_LOWER_ARG = 4, STATIC_INIT_UPPER_ARG = 5, STATIC_INIT_STEP_ARG = 7 };

bool omp_static_share(LLVMValueRef call, LLVMValueRef *lower, LLVMValueRef *upper, bool *is_unsigned) {
  const char *name = ir_called_name(call);
  if (strncmp(name, "__kmpc_for_static_init_", 23) || ir_num_call_args(call) <= STATIC_INIT_STEP_ARG) return false;
  *is_unsigned = name[strlen(name) - 1] == 'u';
  LLVMValueRef kind = LLVMGetArgOperand(call, 2), step = LLVMGetArgOperand(call, STATIC_INIT_STEP_ARG);
  if (!LLVMIsAConstantInt(kind) || (LLVMConstIntGetZExtValue(kind) & ~(unsigned long long)SCHEDULE_MODIFIERS) != SCHEDULE_STATIC ||
      !LLVMIsAConstantInt(step) || LLVMConstIntGetSExtValue(step) != 1)
    return false;
  *lower = LLVMGetArgOperand(call, STATIC_INIT_LOWER_ARG), *upper = LLVMGetArgOperand(call, STATIC_INIT_UPPER_ARG);
  return true;
}

/* __kmpc_dispatch_next_*(loc, gtid, last, lower, upper, stride); __kmpc_dispatch_init_*(loc, gtid, schedule,
   lower, upper, step, chunk) */
enum { DISPATCH_NEXT_LOWER_ARG = 3, DISPATCH_NEXT_UPPER_ARG = 4, DISPATCH_INIT_LOWER_ARG = 3, DISPATCH_INIT_UPPER_ARG = 4,
       DISPATCH_INIT_STEP_ARG = 5 };

bool omp_dispatch_chunk(LLVMValueRef call, LLVMValueRef *lower, LLVMValueRef *upper) {
  if (!omp_is_dispatch_next(call) || ir_num_call_args(call) <= DISPATCH_NEXT_UPPER_ARG) return false;
  *lower = LLVMGetArgOperand(call, DISPATCH_NEXT_LOWER_ARG), *upper = LLVMGetArgOperand(call, DISPATCH_NEXT_UPPER_ARG);
  return true;
}

bool omp_dispatch_bounds(LLVMValueRef call, LLVMValueRef *lower, LLVMValueRef *upper, bool *is_unsigned) {
  const char *name = ir_called_name(call);
  if (strncmp(name, "__kmpc_dispatch_init_", 21) || ir_num_call_args(call) <= DISPATCH_INIT_STEP_ARG) return false;
  LLVMValueRef step = LLVMGetArgOperand(call, DISPATCH_INIT_STEP_ARG);
  if (!LLVMIsAConstantInt(step) || LLVMConstIntGetSExtValue(step) != 1) return false;
  *lower = LLVMGetArgOperand(call, DISPATCH_INIT_LOWER_ARG), *upper = LLVMGetArgOperand(call, DISPATCH_INIT_UPPER_ARG);
  *is_unsigned = name[strlen(name) - 1] == 'u';
  return true;
}

LLVMValueRef omp_task_entry(LLVMValueRef alloc) {
  if (ir_num_call_args(alloc) <= OMP_TASK_ENTRY_ARG) return NULL;
  LLVMValueRef fn = ir_strip_pointer_casts(LLVMGetArgOperand(alloc, OMP_TASK_ENTRY_ARG));
  return LLVMIsAFunction(fn) && !LLVMIsDeclaration(fn) ? fn : NULL;
}

/* clang computes the flags from constants (final(expr) selects one of two) */
static unsigned long long flag_bits(LLVMValueRef v, bool certain, int depth) {
  if (LLVMIsAConstantInt(v)) return LLVMConstIntGetZExtValue(v);
  unsigned long long unknown = certain ? 0 : ~0ull;
  if (depth > 8 || !LLVMIsAInstruction(v)) return unknown;
  LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMSelect: {
    unsigned long long x = flag_bits(b, certain, depth + 1), y = flag_bits(LLVMGetOperand(v, 2), certain, depth + 1);
    return certain ? x & y : x | y;
  }
  case LLVMOr: return flag_bits(a, certain, depth + 1) | flag_bits(b, certain, depth + 1);
  case LLVMZExt: return flag_bits(a, certain, depth + 1);
  default: return unknown;
  }
}

unsigned long long omp_task_flags(LLVMValueRef flags, bool certain) { return flag_bits(flags, certain, 0); }

unsigned omp_task_header_bytes(LLVMValueRef alloc) {
  for (LLVMUseRef u = LLVMGetFirstUse(alloc); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_call(user) && omp_taskloop_dup_arg(user) >= 0 && omp_task_alloc_of(LLVMGetArgOperand(user, 2)) == alloc) return 80;
  }
  return 40;
}

int omp_taskloop_dup_arg(LLVMValueRef call) {
  const char *name = ir_called_name(call);
  return !strcmp(name, "__kmpc_taskloop") ? 10 : !strcmp(name, "__kmpc_taskloop_5") ? 11 : -1;
}

LLVMValueRef omp_task_alloc_of(LLVMValueRef task) {
  task = ir_strip_pointer_casts(task);
  return ir_is_call(task) && omp_is_runtime_call(task) && omp_classify(task) == OMP_TASK_ALLOC ? task : NULL;
}

static bool field_loads(LLVMModuleRef m, LLVMValueRef p, long long at, bool in_shareds, bool shareds, long long offset,
                        ValueList *loads, int depth);

/* The map of a task's private copies clang writes (`.omp_task_privates_map.`, optimised): fn, given the
 * block at its parameter `arg`, only stores the addresses of the block's fields into its other parameters
 * (locals of the caller). */
static bool privates_map_shape(LLVMValueRef fn, unsigned arg) {
  LLVMValueRef block = LLVMGetParam(fn, arg);
  for (LLVMUseRef u = LLVMGetFirstUse(block); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef field = LLVMGetUser(u);
    if (LLVMIsAGetElementPtrInst(field)) {
      LLVMUseRef only = LLVMGetFirstUse(field);
      if (!only || LLVMGetNextUse(only)) return false;
      field = LLVMGetUser(only);
    }
    if (!LLVMIsAStoreInst(field) || LLVMGetOperand(field, 0) == LLVMGetOperand(field, 1) ||
        !LLVMIsAArgument(LLVMGetOperand(field, 1)) || LLVMGetOperand(field, 1) == block)
      return false;
  }
  return LLVMGetFirstUse(block) != NULL;
}

/* The position of the parameter a use of a map's block (above) is stored into. */
static unsigned map_output(LLVMUseRef u) {
  LLVMValueRef store = LLVMGetUser(u);
  if (LLVMIsAGetElementPtrInst(store)) store = LLVMGetUser(LLVMGetFirstUse(store));
  return ir_param_index(LLVMGetOperand(store, 1));
}

/* field_loads through such a map, fn given the block at `arg` by call: on at the caller's loads of the
 * locals it fills. */
static bool privates_map(LLVMModuleRef m, LLVMValueRef call, LLVMValueRef fn, unsigned arg, long long at, bool in_shareds,
                         bool shareds, long long offset, ValueList *loads, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMGetParam(fn, arg)); u; u = LLVMGetNextUse(u)) {
    long long field = at;
    if (LLVMIsAGetElementPtrInst(LLVMGetUser(u)) && !ir_gep_constant_offset(m, LLVMGetUser(u), &field)) return false;
    unsigned out = map_output(u);
    LLVMValueRef local = out < ir_num_call_args(call) ? LLVMGetArgOperand(call, out) : NULL;
    if (!local || !LLVMIsAAllocaInst(local)) return false;
    for (LLVMUseRef v = LLVMGetFirstUse(local); v; v = LLVMGetNextUse(v)) {
      LLVMValueRef user = LLVMGetUser(v);
      if (ir_is_lifetime_marker(user) || user == call) continue;
      if (!LLVMIsALoadInst(user) || !field_loads(m, user, field, in_shareds, shareds, offset, loads, depth + 1)) return false;
    }
  }
  return true;
}

/* omp_task_field_loads from p, a pointer `at` bytes into the task block (in_shareds false) or the shareds
 * block (true). Before the shareds pointer is read, only uses at the block's start matter: clang reads it
 * from the first field, and no other field's address leads back there. */
static bool field_loads(LLVMModuleRef m, LLVMValueRef p, long long at, bool in_shareds, bool shareds, long long offset,
                        ValueList *loads, int depth) {
  if (depth > 16) return false;
  bool looking = in_shareds == shareds; /* in the block that holds the field */
  long long want = looking ? offset : 0; /* the field, or the shareds pointer */
  if (!looking && at >= 8) return true;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_lifetime_marker(user) || LLVMIsAICmpInst(user)) continue;
    if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) {
      long long next[2] = {at, at};
      int ways = !LLVMIsAGetElementPtrInst(user) || ir_gep_constant_offset(m, user, &next[0]) ? 1 : ir_gep_chosen_offsets(m, user, next);
      if (!ways) return false;
      for (int w = 0; w < ways; w++) /* a field of two: whichever it is, its loads are walked */
        if (!field_loads(m, user, next[w], in_shareds, shareds, offset, loads, depth + 1)) return false;
      continue;
    }
    if (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) != p) { /* this field's address or another's */
      if (!field_loads(m, user, at, in_shareds, shareds, offset, loads, depth + 1)) return false;
      continue;
    }
    if (LLVMIsALoadInst(user)) { /* one that reads the pointer wanted but not as a pointer: a reader missed */
      long long size = (long long)LLVMStoreSizeOfType(LLVMGetModuleDataLayout(m), LLVMTypeOf(user));
      if (at >= want + 8 || want >= at + size) continue;
      if (at != want || LLVMGetTypeKind(LLVMTypeOf(user)) != LLVMPointerTypeKind) return false;
      if (looking) vec_push(loads, user);
      else if (!field_loads(m, user, 0, true, shareds, offset, loads, depth + 1)) return false;
      continue;
    }
    if (LLVMIsAStoreInst(user)) {
      LLVMValueRef local = LLVMGetOperand(user, 1);
      if (LLVMGetOperand(user, 0) != p) continue; /* a field written */
      if (!LLVMIsAAllocaInst(local)) return false; /* the address kept in memory */
      for (LLVMUseRef v = LLVMGetFirstUse(local); v; v = LLVMGetNextUse(v)) { /* -O0's local: its loads */
        LLVMValueRef lu = LLVMGetUser(v);
        if (LLVMIsAStoreInst(lu) && LLVMGetOperand(lu, 1) == local && LLVMGetOperand(lu, 0) == p) continue;
        if (ir_is_lifetime_marker(lu)) continue;
        if (!LLVMIsALoadInst(lu) || !field_loads(m, lu, at, in_shareds, shareds, offset, loads, depth + 1)) return false;
      }
      continue;
    }
    if (ir_is_call(user)) {
      LLVMValueRef fn = ir_called_function(user);
      if (!fn || LLVMIsDeclaration(fn) || LLVMGetCalledValue(user) == p) return false;
      for (unsigned a = 0, n = ir_num_call_args(user); a < n; a++) {
        if (LLVMGetArgOperand(user, a) != p) continue;
        if (a >= LLVMCountParams(fn)) return false;
        if (privates_map_shape(fn, a) ? !privates_map(m, user, fn, a, at, in_shareds, shareds, offset, loads, depth)
                                      : !field_loads(m, LLVMGetParam(fn, a), at, in_shareds, shareds, offset, loads, depth + 1))
          return false;
      }
      continue;
    }
    return false;
  }
  return true;
}

LLVMValueRef omp_privates_map_source(LLVMValueRef local) {
  if (!LLVMIsAAllocaInst(local)) return NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(local); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u), fn = ir_is_call(call) ? ir_called_function(call) : NULL;
    if (!fn || LLVMIsDeclaration(fn)) continue;
    for (unsigned b = 0, n = ir_num_call_args(call); b < n && b < LLVMCountParams(fn); b++) {
      if (LLVMGetArgOperand(call, b) == local || !privates_map_shape(fn, b)) continue;
      for (LLVMUseRef v = LLVMGetFirstUse(LLVMGetParam(fn, b)); v; v = LLVMGetNextUse(v)) { /* the store into local */
        unsigned out = map_output(v);
        if (out < n && LLVMGetArgOperand(call, out) == local) return LLVMGetArgOperand(call, b);
      }
    }
  }
  return NULL;
}

bool omp_task_field_loads(LLVMValueRef alloc, bool shareds, long long offset, ValueList *loads) {
  LLVMValueRef entry = omp_task_entry(alloc);
  if (!entry || LLVMCountParams(entry) < 2) return false;
  return field_loads(LLVMGetGlobalParent(entry), LLVMGetParam(entry, 1), 0, false, shareds, offset, loads, 0);
}

/* The task allocation whose block p points into, or whose shareds block (then *shareds), *offset bytes
 * in; NULL when p points elsewhere. */
static LLVMValueRef task_block(LLVMModuleRef m, LLVMValueRef p, bool *shareds, long long *offset) {
  long long first = 0;
  LLVMValueRef base = ir_strip_constant_offsets(m, p, offset), alloc = omp_task_alloc_of(base);
  *shareds = false;
  if (alloc || !LLVMIsALoadInst(base)) return alloc;
  *shareds = true;
  alloc = omp_task_alloc_of(ir_strip_constant_offsets(m, LLVMGetOperand(base, 0), &first));
  return first == 0 ? alloc : NULL;
}

LLVMValueRef omp_copied_into_shareds(LLVMValueRef local, long long *offset) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(local)));
  LLVMValueRef alloc = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(local); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_lifetime_marker(user)) continue;
    if (LLVMIsAGetElementPtrInst(user)) { /* a field's address: only stored into */
      long long at = 0;
      if (!ir_gep_constant_offset(m, user, &at)) return NULL;
      for (LLVMUseRef v = LLVMGetFirstUse(user); v; v = LLVMGetNextUse(v))
        if (!LLVMIsAStoreInst(LLVMGetUser(v)) || LLVMGetOperand(LLVMGetUser(v), 1) != user) return NULL;
      continue;
    }
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == local) continue;
    bool shareds;
    long long at = 0;
    LLVMValueRef fn = ir_is_call(user) ? ir_called_function(user) : NULL;
    if (alloc || !fn || strncmp(LLVMGetValueName(fn), "llvm.memcpy", 11) || LLVMGetArgOperand(user, 1) != local ||
        !(alloc = task_block(m, LLVMGetArgOperand(user, 0), &shareds, &at)) || !shareds)
      return NULL;
    *offset = at;
  }
  return alloc;
}

LLVMValueRef omp_task_field_stored(LLVMValueRef store, bool *shareds, long long *offset) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(store)));
  *offset = 0;
  LLVMValueRef alloc = task_block(m, LLVMGetOperand(store, 1), shareds, offset);
  if (alloc) return alloc;
  long long field = 0, into = 0;
  LLVMValueRef local = ir_strip_constant_offsets(m, LLVMGetOperand(store, 1), &field);
  if (!LLVMIsAAllocaInst(local) || !(alloc = omp_copied_into_shareds(local, &into))) return NULL;
  *shareds = true, *offset = into + field;
  return alloc;
}

bool omp_task_field_readers(LLVMValueRef store, ValueList *loads) {
  bool shareds;
  long long offset;
  LLVMValueRef alloc = omp_task_field_stored(store, &shareds, &offset);
  return alloc && omp_task_field_loads(alloc, shareds, offset, loads);
}

/* A local array only filled with stores and read by task spawns and waits for dependences. */
static bool dependence_list(LLVMValueRef p, int depth) {
  if (depth > 4) return false;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (ir_is_lifetime_marker(user) || (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p)) continue;
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p) {
      if (!dependence_list(user, depth + 1)) return false;
      continue;
    }
    if (!ir_is_call(user) || !omp_is_runtime_call(user)) return false;
    OmpKind k = omp_classify(user);
    if (k != OMP_TASK_SPAWN && k != OMP_TASK_WAIT) return false;
  }
  return true;
}

static bool only_a_dependence(LLVMValueRef v, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef store = LLVMGetUser(u);
    if (LLVMIsAInstruction(store) && LLVMGetInstructionOpcode(store) == LLVMSub) { /* a length (-O0's c[0:n]) */
      if (depth > 2 || !only_a_dependence(store, depth + 1)) return false;
      continue;
    }
    if (!LLVMIsAStoreInst(store) || LLVMGetOperand(store, 0) != v) return false;
    LLVMValueRef list = LLVMGetOperand(store, 1);
    while (LLVMIsAGetElementPtrInst(list)) list = LLVMGetOperand(list, 0);
    if (!LLVMIsAAllocaInst(list) || !dependence_list(list, 0)) return false;
  }
  return true;
}

bool omp_only_a_dependence(LLVMValueRef v) { return only_a_dependence(v, 0); }

LLVMValueRef omp_called_function(LLVMValueRef call) {
  if (!omp_is_runtime_call(call)) return NULL;
  switch (omp_classify(call)) {
  case OMP_FORK: return omp_fork_outlined(call);
  case OMP_TASK_ALLOC: return omp_task_entry(call);
  default: return NULL;
  }
}

LLVMValueRef omp_fork_outlined(LLVMValueRef call) {
  if (ir_num_call_args(call) < OMP_FORK_FIRST_ARG) return NULL;
  LLVMValueRef fn = ir_strip_pointer_casts(LLVMGetArgOperand(call, 2));
  return LLVMIsAFunction(fn) && !LLVMIsDeclaration(fn) ? fn : NULL;
}

LLVMValueRef omp_param_receiving(LLVMValueRef call, unsigned arg, unsigned *index) {
  bool fork = omp_classify(call) == OMP_FORK;
  LLVMValueRef fn = fork ? omp_fork_outlined(call) : ir_called_function(call);
  if (!fn || LLVMIsDeclaration(fn) || (fork && arg < OMP_FORK_FIRST_ARG)) return NULL;
  unsigned param = fork ? arg - OMP_FORK_FIRST_ARG + OMP_OUTLINED_FIRST_PARAM : arg;
  if (param >= LLVMCountParams(fn)) return NULL;
  *index = param;
  return LLVMGetParam(fn, param);
}

bool omp_end_reduce_has_barrier(LLVMValueRef call) { return !strcmp(ir_called_name(call), "__kmpc_end_reduce"); }

LLVMValueRef omp_lock(LLVMValueRef call) {
  switch (omp_classify(call)) {
  case OMP_CRITICAL:
  case OMP_END_CRITICAL: return LLVMGetArgOperand(call, ir_num_call_args(call) == 1 ? 0 : 2);
  case OMP_REDUCE: return LLVMGetArgOperand(call, 6);
  case OMP_END_REDUCE: return LLVMGetArgOperand(call, 2);
  case OMP_ORDERED: return LLVMGetArgOperand(call, 0); /* the construct's location: it orders its entries */
  default: return NULL;
  }
}

enum { DEP_INOUT = 3, DEP_MUTEXINOUTSET = 4, DEP_INOUTSET = 8 }; /* kmp_depend_info's flags */

/* The stores of a constant dependence kind into the array at p or its elements. */
static void kind_stores(LLVMValueRef p, int depth, ValueList *out) {
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAGetElementPtrInst(user) && depth < 8) kind_stores(user, depth + 1, out);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p) {
      LLVMValueRef v = LLVMGetOperand(user, 0);
      if (LLVMIsAConstantInt(v) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 8) vec_push(out, user);
    }
  }
}

/* The dependence kinds the spawn's array is filled with (none for other calls). */
static ValueList spawn_kind_stores(LLVMValueRef call) {
  ValueList stores = {0};
  if (strcmp(ir_called_name(call), "__kmpc_omp_task_with_deps") || ir_num_call_args(call) < 5) return stores;
  LLVMValueRef deps = ir_address_base(LLVMGetArgOperand(call, 4));
  if (LLVMIsAAllocaInst(deps)) kind_stores(deps, 0, &stores);
  return stores;
}

bool omp_spawn_has_unordered_deps(LLVMValueRef call) {
  ValueList stores = spawn_kind_stores(call);
  bool found = false;
  for (size_t i = 0; i < stores.len; i++) found |= (LLVMConstIntGetZExtValue(LLVMGetOperand(stores.data[i], 0)) & DEP_INOUTSET) != 0;
  vec_free(&stores);
  return found;
}

void omp_serialise_mutexinoutset(LLVMValueRef call) {
  ValueList stores = spawn_kind_stores(call);
  for (size_t i = 0; i < stores.len; i++) {
    LLVMValueRef v = LLVMGetOperand(stores.data[i], 0);
    if (LLVMConstIntGetZExtValue(v) == DEP_MUTEXINOUTSET) LLVMSetOperand(stores.data[i], 0, LLVMConstInt(LLVMTypeOf(v), DEP_INOUT, 0));
  }
  vec_free(&stores);
}

/* Whether a branch on cond decides if this thread runs a single or master (masked) block: the runtime
 * call's result compared with 0 (`!= 0` as clang writes it, `== 0` once optimised: *chosen_if_true
 * says which); or the program's own `omp_get_thread_num() == k` with k a constant (the master block of
 * code written before OpenMP had one: `if (tid == 0) MPI_Allreduce(...)`). */
static bool picks_one_thread(LLVMValueRef cond, bool *chosen_if_true) {
  LLVMIntPredicate p = LLVMIsAICmpInst(cond) ? LLVMGetICmpPredicate(cond) : LLVMIntSLT;
  if ((p != LLVMIntNE && p != LLVMIntEQ) || !LLVMIsAConstantInt(LLVMGetOperand(cond, 1)) ||
      !ir_is_call(LLVMGetOperand(cond, 0)))
    return false;
  const char *name = ir_called_name(LLVMGetOperand(cond, 0));
  if (!strcmp(name, "omp_get_thread_num")) {
    *chosen_if_true = p == LLVMIntEQ;
    return LLVMConstIntGetSExtValue(LLVMGetOperand(cond, 1)) >= 0;
  }
  *chosen_if_true = p == LLVMIntNE;
  return !LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1)) &&
         (!strcmp(name, "__kmpc_single") || !strcmp(name, "__kmpc_master") || !strcmp(name, "__kmpc_masked"));
}

/* Whether a block's instructions before `before` (all of them: NULL) end a single or master block. */
static bool ends_one_thread_block(LLVMBasicBlockRef bb, LLVMValueRef before) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && i != before; i = LLVMGetNextInstruction(i)) {
    const char *name = ir_is_call(i) ? ir_called_name(i) : "";
    if (!strcmp(name, "__kmpc_end_single") || !strcmp(name, "__kmpc_end_master") || !strcmp(name, "__kmpc_end_masked"))
      return true;
  }
  return false;
}

bool omp_in_one_thread_block(LLVMValueRef inst) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  if (ends_one_thread_block(bb, inst)) return false;
  Cfg cfg;
  cfg_build(LLVMGetBasicBlockParent(bb), &cfg);
  bool found = false, ended = false;
  /* up the dominators: no block on the way may end the block the branch found begins */
  for (int at = cfg_index(&cfg, bb); at > 0 && !found && !ended;) {
    int up = cfg.idom[at];
    LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg.blocks.data[up]);
    /* the block the branch takes when this thread is the one: entered from the branch only */
    bool if_true;
    if (br && LLVMIsABranchInst(br) && LLVMIsConditional(br) && picks_one_thread(LLVMGetCondition(br), &if_true)) {
      LLVMBasicBlockRef then = LLVMGetSuccessor(br, if_true ? 0 : 1);
      int t = cfg_index(&cfg, then);
      found = t >= 0 && cfg.preds[t].len == 1 && cfg_dominates(&cfg, then, bb);
    }
    ended = !found && ends_one_thread_block(cfg.blocks.data[up], NULL);
    at = up;
  }
  cfg_free(&cfg);
  return found;
}
