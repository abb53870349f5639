/* OpenMP as clang lowers it to the libomp ABI: what each runtime call means to the generators.
 *
 * A parallel region is a call __kmpc_fork_call(loc, n, outlined, args...) that runs
 * outlined(&gtid, &btid, args...) on every thread of a team; the outlined function is differentiated
 * like any function of the module, with the arguments' activity. Work-sharing, single, master and the
 * like only decide which thread runs what: they carry no data, and the reverse sweep replays each
 * thread's own choices from its tape. Barriers, critical sections and reductions synchronise, and have
 * adjoints of their own (omp_forward.c, omp_reverse.c). A task is a block the creating code fills (the
 * shared variables' addresses, the firstprivate values) and an entry function the runtime calls with it:
 * both modes give the block a shadow (omp_forward.c, omp_reverse.c).
 * Task reductions of sums are opened up before differentiating (omp_task_reductions.c); copyprivate moves
 * the shadows and adjoints with libomp's own call (omp_copyprivate.c). The rest (other task reductions,
 * ...) moves data in ways Parad does not follow: refused. */
#ifndef PARAD_OMP_OMP_H
#define PARAD_OMP_OMP_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ir/ir.h"

typedef enum {
  OMP_FORK,           /* __kmpc_fork_call(loc, n, outlined, args...) */
  OMP_BARRIER,        /* __kmpc_barrier(loc, gtid) */
  OMP_CRITICAL,       /* __kmpc_critical(loc, gtid, lock), omp_set_lock(lock) */
  OMP_END_CRITICAL,   /* __kmpc_end_critical(loc, gtid, lock), omp_unset_lock(lock) */
  OMP_REDUCE,         /* __kmpc_reduce[_nowait](loc, gtid, n, size, list, combiner, lock) -> method;  */
  OMP_END_REDUCE,     /* __kmpc_end_reduce[_nowait](loc, gtid, lock): gone after omp_prepare */
  OMP_SCHEDULE,       /* work-sharing, single, master, thread numbers, team sizes: no data */
  OMP_ORDERED,        /* __kmpc_ordered / __kmpc_end_ordered */
  OMP_TASK_ALLOC,     /* __kmpc_omp_task_alloc(loc, gtid, flags, size, shareds_size, entry) -> task */
  OMP_TASK_SPAWN,     /* __kmpc_omp_task[_with_deps](loc, gtid, task, ...), __kmpc_omp_task_begin_if0 and
                         _complete_if0 (the task run at once: the caller calls the entry itself), and
                         __kmpc_taskloop[_5](loc, gtid, task, ...): the task copied once per chunk */
  OMP_TASK_WAIT,      /* taskwait, taskgroup and its end, taskyield, a wait for dependences */
  OMP_COPYPRIVATE,    /* __kmpc_copyprivate(loc, gtid, size, list, copy, didit): a single's values to the team
                         (omp_copyprivate.c) */
  OMP_UNSUPPORTED,    /* task reductions other than sums, threadprivate copies, ... */
} OmpKind;

/* copyprivate (omp_copyprivate.c). The list argument; the variables' addresses the list holds, in order
 * (false when its shape is not clang's: refused). */
enum { OMP_COPYPRIVATE_LIST_ARG = 3, OMP_COPYPRIVATE_COPY_ARG = 4 };
bool omp_copyprivate_list(LLVMValueRef call, ValueList *elems);
/* Whether the reverse sweep can move the adjoints of the shadowed variables: each is floats (scalars,
 * arrays) or holds pointers; else false and the reason. */
bool omp_copyprivate_reversible(const ValueList *elems, const bool *shadowed, const char **why);
/* The reverse sweep's copy function: copy(mine, theirs) adds the adjoints of the shadowed variables of
 * floats of `mine` into `theirs` (atomically: the team's other threads add at once) and resets them. */
LLVMValueRef omp_copyprivate_adjoint(LLVMModuleRef m, const ValueList *elems, const bool *shadowed);

/* The refusal of OMP_UNSUPPORTED: the entry point's name, and what the construct is and that it is not
 * supported (omp_unsupported_reason). */
const char *omp_unsupported_reason(LLVMValueRef call);
#define OMP_UNSUPPORTED_MESSAGE "cannot differentiate this OpenMP construct (%s): %s"

/* Before differentiation (ad_prepare): the reductions of every function a derivative request reaches
 * take the critical-section method (omp_prepare.c). */
void omp_prepare(LLVMModuleRef m);
/* Part of it: in those functions (fns), a task's private copy of a sum becomes a local added into the
 * variable atomically when the task returns (omp_task_reductions.c). */
void omp_open_task_reductions(LLVMModuleRef m, const ValueList *fns);
/* Part of it: an untied task's allocation (OMP_TASK_ALLOC) made tied, its entry running its parts in one
 * call (omp_untied.c); entries already joined are in `joined`. Left as it is where the entry's shape is
 * not clang's. */
void omp_run_tied(LLVMModuleRef m, LLVMValueRef alloc, ValueMap *joined);
/* Part of it, over the whole module: a task function's call of the map of its private copies, which
 * clang makes through a pointer its entry passes, made direct, and replaced by the copies' addresses
 * (omp_private_maps.c). */
void omp_direct_private_maps(LLVMModuleRef m);
/* Regions' memcpys of floats into or out of shared memory, made the loops the optimiser found them as,
 * so that the reverse sweep plans their accesses (omp_shared_copies.c). After the light optimisation,
 * which would make them memcpys again. */
void omp_shared_copies_as_loops(LLVMModuleRef m);
/* After the light optimisation, which infers readonly and nocapture: the outlined functions' parameters
 * that are the address of a shared variable the region only reads, and that nothing else can reach,
 * become noalias (omp_captures.c). Returns how many, so that the caller hoists their loads again. */
unsigned omp_mark_read_only_captures(LLVMModuleRef m);
/* After the light optimisation: in regions' functions, the loads of a struct's address that a member access
 * right after shows to point to a whole struct, marked dereferenceable and aligned, so that the loads of its
 * members can be hoisted out of the region's loops (omp_struct_captures.c). Returns how many. */
unsigned omp_mark_struct_captures(LLVMModuleRef m);
/* After the light optimisation: each thread's share of a region's 1-D worksharing loop run as its two
 * edges and its middle, so that the middle's reverse finds its reads the thread's own (omp_segment_runs.c).
 * Returns how many loops were split. */
unsigned omp_segment_runs(LLVMModuleRef m);
/* After the optimiser: deletes the stores of parallel regions into locals of the forking function that
 * nothing reads after the fork (omp_unread_shared.c); how many such locals. */
unsigned omp_drop_unread_shared_writes(LLVMModuleRef m);

/* Whether a call is to the OpenMP runtime (libomp's __kmpc_* entry points and omp_*_lock), and which. */
bool omp_is_runtime_call(LLVMValueRef call);
OmpKind omp_classify(LLVMValueRef call);
/* Whether the call writes nothing but the calling thread's own memory and orders no threads (thread
 * numbers, team sizes, a static schedule's bounds). */
bool omp_is_quiet(LLVMValueRef call);
/* Whether every path to `at` (a fork, a call) comes from a region through code that writes only the
 * function's local variables (into locals, each once; empty when not) and calls nothing that writes: from
 * forks of the function or calls `source` accepts (a function that ends with its region, called with a
 * derivative), or some path from the function's entry (quiet where its caller gives the chain)
 * (omp_quiet_forks.c). */
typedef enum { QUIET_NOT, QUIET_FROM_REGION, QUIET_FROM_ENTRY } OmpQuiet;
typedef bool (*OmpChainSource)(void *ctx, LLVMValueRef call);
OmpQuiet omp_quiet_before(LLVMValueRef at, OmpChainSource source, void *ctx, ValueList *locals);
/* Whether every path to fn's returns comes from one of its forks, writing nothing (its last region is the
 * last thing that wrote). */
bool omp_ends_in_region(LLVMValueRef fn);
/* Whether fn has a fork quiet since its entry: then its forward sweep takes the chain at its entry, and a
 * caller quiet at the call gives it (both decided here, from fn's IR alone). */
bool omp_takes_chain(LLVMValueRef fn);

/* Where a thread's next chunk of a worksharing loop starts: a call of __kmpc_dispatch_next_* (dynamic,
 * guided and runtime schedules), and a __kmpc_for_static_init_* whose schedule is static with a chunk
 * size (its thread's chunks are the iterations of a loop after it). */
bool omp_is_dispatch_next(LLVMValueRef call);
bool omp_is_static_chunked_init(LLVMValueRef call);
/* For a __kmpc_for_static_init_* of an unchunked static schedule, step one: the addresses of the loop's
 * lower and upper bounds, and whether they are unsigned. The runtime narrows them to the calling
 * thread's share: the upper bound stays between the two it was given, the lower one at least the lower
 * it was given (past the upper where the thread gets no iterations). False for other calls. */
bool omp_static_share(LLVMValueRef call, LLVMValueRef *lower, LLVMValueRef *upper, bool *is_unsigned);
/* For a __kmpc_dispatch_next_*: the addresses it writes the next chunk's bounds to (where it returns
 * nonzero, between the bounds the loop's __kmpc_dispatch_init_* was given). For a dispatch init of step
 * one: those bounds, and whether they are unsigned. */
bool omp_dispatch_chunk(LLVMValueRef call, LLVMValueRef *lower, LLVMValueRef *upper);
bool omp_dispatch_bounds(LLVMValueRef call, LLVMValueRef *lower, LLVMValueRef *upper, bool *is_unsigned);

/* Whether inst runs on one thread of the team at a time: inside a single, master or masked block of its
 * function (dominated by the branch the chosen thread takes, before the block's end). */
bool omp_in_one_thread_block(LLVMValueRef inst);

/* For OMP_FORK: the outlined function (NULL if it is not one of the module's), and the index of the
 * call argument that becomes its parameter 2 (its first two are the thread ids). */
LLVMValueRef omp_fork_outlined(LLVMValueRef call);
enum { OMP_FORK_FIRST_ARG = 3, OMP_OUTLINED_FIRST_PARAM = 2 };
/* The parameter that gets argument `arg` of call in the function the call runs (its callee, or the region a
 * fork runs), and its position; NULL for an indirect call, a declaration, a fork's own arguments, or an
 * argument past the parameters. */
LLVMValueRef omp_param_receiving(LLVMValueRef call, unsigned arg, unsigned *index);
/* For OMP_TASK_ALLOC: the task's entry function, (gtid, task) -> 0 (NULL if it is not one of the
 * module's). For a task pointer: the allocation that made it (NULL when not seen). */
LLVMValueRef omp_task_entry(LLVMValueRef alloc);
/* The bits of a task's flags that may be set (certain: that are set whatever the program's values). */
enum { OMP_TASK_TIED = 1, OMP_TASK_DESTRUCTORS = 8, OMP_TASK_DETACHABLE = 64 };
unsigned long long omp_task_flags(LLVMValueRef flags, bool certain);
/* For a task loop (__kmpc_taskloop[_5], an OMP_TASK_SPAWN whose task libomp copies once per chunk): the
 * argument holding the function that completes each copy (or null); -1 for other calls. */
int omp_taskloop_dup_arg(LLVMValueRef call);
/* The bytes of a task's header before its private copies: 40 (kmp_task_t), 80 for a task loop's (its
 * bounds, stride, last-iteration flag and reductions follow). */
unsigned omp_task_header_bytes(LLVMValueRef alloc);
LLVMValueRef omp_task_alloc_of(LLVMValueRef task);
/* The loads, in a task's own code, of the pointer field `offset` bytes into the block of the task
 * allocation alloc (shareds false: the task block, its header and private copies) or into its shareds
 * block (true), appended to loads: the entry's task parameter followed through constant offsets, the
 * shareds pointer it reads from the block's first field, the locals -O0 keeps them in and the program's
 * functions they are passed to. False where the task's code uses the block otherwise (an address kept in
 * memory or handed to a function not in the program, an offset not constant), so that a reader may be
 * missed. */
bool omp_task_field_loads(LLVMValueRef alloc, bool shareds, long long offset, ValueList *loads);
/* -O0's shareds: a local struct filled field by field and copied whole into a task's shareds block. The
 * allocation, with *offset the copy's destination in the shareds, when the local goes nowhere else; NULL
 * otherwise. */
LLVMValueRef omp_copied_into_shareds(LLVMValueRef local, long long *offset);
/* The task allocation whose block (or shareds, then *shareds) store writes, *offset bytes in; NULL when it
 * writes no task's field. */
LLVMValueRef omp_task_field_stored(LLVMValueRef store, bool *shareds, long long *offset);
/* The loads, in the task's code, of the field of a task's block (or its shareds) that store writes,
 * appended to loads; false when store writes no such field or the task's code may read it otherwise. */
bool omp_task_field_readers(LLVMValueRef store, ValueList *loads);
/* For a local a task's code passes to clang's map of its private copies: the block (an argument of the
 * same call) into which the address the map stores there points; NULL for any other local. */
LLVMValueRef omp_privates_map_source(LLVMValueRef local);
/* Whether the integer v (an address made an integer) goes only into lists of task dependences (a local
 * array of kmp_depend_info that only task spawns and waits for dependences read), itself or as the
 * difference of two addresses (a section's length), where libomp compares it and never makes it an
 * address again. */
bool omp_only_a_dependence(LLVMValueRef v);
enum { OMP_TASK_FLAGS_ARG = 2, OMP_TASK_SIZE_ARG = 3, OMP_TASK_SHAREDS_ARG = 4, OMP_TASK_ENTRY_ARG = 5 };
/* The function a runtime call makes the team or a task run: a fork's outlined function, a task
 * allocation's entry; NULL for any other call. */
LLVMValueRef omp_called_function(LLVMValueRef call);
/* For the blocking forms: __kmpc_end_reduce ends with a barrier, __kmpc_reduce does not. */
bool omp_end_reduce_has_barrier(LLVMValueRef call);
/* For OMP_CRITICAL: whether the section's reverse needs the order the threads entered it in (it
 * overwrites shared data rather than adding into it; omp_critical_order.c). */
bool omp_critical_order_matters(LLVMValueRef enter);
/* For __kmpc_omp_task_with_deps, on the code clang wrote (before optimising, which may merge the stores
 * that fill the dependences): whether one is inoutset, whose tasks run in no fixed order among themselves.
 * omp_prepare marks such spawns (OMP_UNORDERED_DEPS metadata) for reverse mode to refuse. */
bool omp_spawn_has_unordered_deps(LLVMValueRef call);
/* Its mutexinoutset dependences made inout: the tasks that name the same datum then run in the order they
 * were created, which mutual exclusion allows (a schedule among those it allows), and the reverse sweep
 * reverses that order. */
void omp_serialise_mutexinoutset(LLVMValueRef call);
#define OMP_UNORDERED_DEPS "parad.unordered_deps"
/* The lock operand of OMP_CRITICAL, OMP_END_CRITICAL, OMP_REDUCE, OMP_END_REDUCE; of OMP_ORDERED, the
 * construct's location, which keys the order of its entries as a lock's. */
LLVMValueRef omp_lock(LLVMValueRef call);

#endif
