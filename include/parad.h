/* parad.h: what a program includes to ask Parad for derivatives. Build it with parad-cc.
 *
 * Forward mode (tangents):
 *     double dy = __parad_fwddiff((void *)f, x, dx, parad_const, n);      // dy = f'(x) . dx
 *   Each argument may be preceded by a marker:
 *     parad_dup        value, then its shadow (a pointer's tangent buffer, or a float's tangent)
 *     parad_dupnoneed  the same; the primal result stored through it is not needed
 *     parad_const      value only: no derivative with respect to it
 *   Without a marker, pointers and floats are duplicated and integers constant (and MPI handles, which are
 *   pointers under Open MPI: a parameter only passed on to MPI calls, not as a buffer).
 *   Vector mode: __parad_fwddiff((void *)f, parad_width, N, x, dx0, ..., dxN-1) computes N directions at
 *   once; declare your own variant of the entry point returning a struct of N doubles (see below).
 *
 * Reverse mode (gradients):
 *     double dk = __parad_autodiff((void *)f, x, dx, k, parad_const, n);   // dx += df/dx, dk = df/dk
 *   A float result of f is seeded with 1; pointer arguments are followed by their shadow, into which the
 *   adjoints are added (a buffer f writes as an output carries its seed in). The call returns the
 *   adjoints of the float arguments passed by value (a struct of them when there are several).
 *   With MPI, a result every rank holds (after an Allreduce) is one value: return it through an output
 *   buffer whose adjoint is 1 on rank 0 and 0 elsewhere.
 *
 * Split mode (the two sweeps apart):
 *     void *t = __parad_augmentfwd((void *)f, x, dx, n);          // the forward sweep; its tape
 *     double dk = __parad_reverse((void *)f, x, dx, n, dr, parad_tape, t);   // the reverse sweep, dr: the
 *                                                                // adjoint of f's result; frees the tape
 *   or with the tape in a buffer of the caller's: parad_allocated, size, parad_tape, buffer (anywhere among
 *   the arguments; size from __parad_augmentsize).
 *
 * Split forward mode: __parad_fwdsplit((void *)f, x, dx, n, t) is the tangent of the call whose forward
 *   sweep __parad_augmentfwd ran (t its tape, freed here, or null): f runs again in forward mode, which
 *   Parad allows where that computes what the first run did (f does not read what it writes).
 *
 * Batch mode: __parad_batch((void *)f, parad_width, W, args...) returns f's results on W lanes (declare a
 *   variant returning a struct of W results); each argument takes W values, one per lane (parad_vector,
 *   the default) or one for all (after parad_scalar).
 *
 * The Enzyme spellings (__enzyme_fwddiff, __enzyme_autodiff, __enzyme_augmentfwd, __enzyme_reverse,
 * __enzyme_fwdsplit, __enzyme_batch, enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_out, enzyme_width,
 * enzyme_tape, enzyme_allocated, enzyme_vector, enzyme_scalar)
 * mean the same and may be declared by the program itself; parad.h declares only Parad's entry points in
 * C, so that a program's own declarations of Enzyme's, with whatever result type, do not conflict. */
#ifndef PARAD_H
#define PARAD_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>

extern int parad_dup, parad_const, parad_dupnoneed, parad_out, parad_width, parad_tape, parad_allocated;
extern int parad_vector, parad_scalar;
/* the same, Enzyme's names */
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_out, enzyme_width, enzyme_tape, enzyme_allocated;
extern int enzyme_vector, enzyme_scalar;

/* The call's declared result type is what it returns: declare your own variant (any name starting
 * with __parad_fwddiff) when you want another result, e.g. a struct of N tangents in vector mode. */
double __parad_fwddiff(void *fn, ...);
double __parad_autodiff(void *fn, ...);
/* Split mode: the tape (declare a variant returning struct {void *tape; R result;} for f's result too),
 * and the gradients as __parad_autodiff returns them. */
void *__parad_augmentfwd(void *fn, ...);
double __parad_reverse(void *fn, ...);
/* The size of the buffer parad_allocated asks for. */
int __parad_augmentsize(void *fn, ...);
/* Split forward mode: the tangent, given the tape of __parad_augmentfwd last. */
double __parad_fwdsplit(void *fn, ...);

/* The tape: the most bytes one thread's tapes held (at the end of a forward sweep), the sum over every
 * tape of every thread of what it held, both since the last reset (call between gradients). */
size_t parad_tape_peak_bytes(void);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);
/* The tape budget: the most bytes all reverse-mode tapes and snapshots may hold at once (0: no budget,
 * the default); PARAD_TAPE_LIMIT in the environment (bytes, with K, M or G) sets it too, the program's
 * call winning. Loops marked with __parad_checkpoint_loop() keep their snapshots under it; a forward
 * sweep whose tape would still go over stops the program with the figures (exit status 70) instead of
 * running the machine out of memory. */
void parad_set_tape_limit(size_t bytes);
/* Called first in the body of a loop (a time loop), in a function that reverse mode differentiates: the
 * loop's steps are not taped; the forward sweep keeps snapshots of the state at spaced steps (under the
 * tape budget, else at most 1 GiB of them) and the reverse sweep recomputes each step from the nearest
 * snapshot before reversing it (revolve's binomial schedule). The state is what the steps write: the
 * function's variables the loop uses and the memory the steps store into, found as they run. A step runs
 * again when it is recomputed: what it prints, it prints again. A step may run OpenMP parallel regions;
 * not yet MPI, tasks, or nested checkpointed loops. It never throws (C++ calls it, rather than invoke it,
 * where a destructor is pending). */
void __parad_checkpoint_loop(void) __attribute__((nothrow));
/* Of the last checkpointed loop this thread reversed: its steps, and how many times steps ran in all
 * (forward sweep, recomputations and the taped runs before each step's reverse: 2 per step at least). A
 * step runs from the loop's test to the next: a `for` loop of T iterations makes T + 1 steps, the last of
 * which finds the loop's end. */
void parad_checkpoint_counts(long *steps, long *runs);
/* Programs built with PARAD_COUNT_UPDATES set: the adjoint updates of shared memory the reverse sweeps of
 * parallel regions made, plain and atomic. */
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

#ifdef __cplusplus
}

/* Enzyme's C++ spelling: the result type as a template argument, the arguments with their own types,
 * __enzyme_autodiff<double>((void *)f, enzyme_dup, x, dx). */
template <typename Return, typename... Args> Return __enzyme_autodiff(void *, Args...);
template <typename Return, typename... Args> Return __enzyme_fwddiff(void *, Args...);
#endif

#endif
