/* The SLP vectoriser kept out of reverse sweeps, unless it pays there.
 *
 * A reverse sweep adds into the adjoints of neighbouring elements iteration after iteration (a stencil's
 * centre and its left neighbour, a Gauss-Seidel sweep's row). LLVM's SLP vectoriser pairs two such
 * updates into one 16-byte read-modify-write; the next iteration's pair, 8 bytes further down, reads half
 * of what the last one stored, which the processor cannot forward from the store, so every iteration
 * waits for the store before it (the 9-point Gauss-Seidel gradient: 1.85 times the primal with SLP, 1.39
 * without; a periodic Jacobi step at 2 threads: 110 ms with it, 66 without). The scalar updates forward.
 * Elsewhere SLP pairs unrelated chains of partial derivatives and moves lanes more than it saves
 * (bundle adjustment's residual, an ODE step over three scalars: 7-14% slower), except where the
 * sweep reverses a fixed-size step the primal's SLP paired too (a Riccati recursion over 4 x 4 arrays,
 * scalarised: half the time).
 *
 * LLVM 19 offers no per-function choice inside its pipelines (the pass builder's SLP option leaves the
 * pass in, its command-line switch is the process's), but the SLP pass passes over a function marked
 * noimplicitfloat. So the pipelines run without SLP, and then the SLP vectoriser and its clean-up run on
 * their own: functions holding reverse-sweep code that stores a floating-point value in a loop are
 * marked noimplicitfloat for that run; the other ones holding reverse code are tried, a scalar copy kept
 * aside, and keep the paired version only where SLP took out more arithmetic than it added lane moves.
 * Reverse code is followed through inlining by a metadata tag on its stores. */
#ifndef PARAD_AD_SLP_OUTSIDE_REVERSE_H
#define PARAD_AD_SLP_OUTSIDE_REVERSE_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ir/ir.h"

/* The function attribute the reverse generator gives each reverse sweep it writes. */
#define SLP_REVERSE_ATTR "parad-reverse"

/* After generating: takes SLP_REVERSE_ATTR off the functions that have it and, when tag is set, tags
 * their stores. */
void slp_tag_reverse(LLVMModuleRef m, bool tag);

typedef struct {
  ValueList held;          /* marked noimplicitfloat for the SLP run */
  ValueList tried, copies; /* tried[i]'s scalar copy is copies[i] (marked too) */
} SlpReverse;

/* After the pipelines: marks noimplicitfloat every function with a tagged store in a loop that is not
 * already, and copies the other functions with a tagged store. */
void slp_hold_reverse(LLVMModuleRef m, SlpReverse *s);
/* After the SLP run: gives each tried function its copy's code back where SLP did not pay, deletes the
 * copies, takes the marks of slp_hold_reverse off, and every tag. */
void slp_release_reverse(LLVMModuleRef m, SlpReverse *s);

#endif
