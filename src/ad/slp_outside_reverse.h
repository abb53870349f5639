/* The SLP vectoriser kept out of reverse sweeps.
 *
 * A reverse sweep adds into the adjoints of neighbouring elements iteration after iteration (a stencil's
 * centre and its left neighbour, a Gauss-Seidel sweep's row). LLVM's SLP vectoriser pairs two such
 * updates into one 16-byte read-modify-write; the next iteration's pair, 8 bytes further down, reads half
 * of what the last one stored, which the processor cannot forward from the store, so every iteration
 * waits for the store before it (the 9-point Gauss-Seidel gradient: 1.85 times the primal with SLP, 1.39
 * without; a periodic Jacobi step at 2 threads: 110 ms with it, 66 without). The scalar updates forward.
 *
 * LLVM 19 offers no per-function choice inside its pipelines (the pass builder's SLP option leaves the
 * pass in, its command-line switch is the process's), but the SLP pass passes over a function marked
 * noimplicitfloat. So the pipelines run without SLP, and then the SLP vectoriser and its clean-up run on
 * their own, the functions that hold reverse-sweep code marked noimplicitfloat for that run only: primal
 * code, tangents and vector tangents are paired as before, reverse sweeps not. Reverse code is followed
 * through inlining by a metadata tag on its stores. */
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
/* After the pipelines: marks noimplicitfloat every function with a tagged store that is not already,
 * appending them to *held. */
void slp_hold_reverse(LLVMModuleRef m, ValueList *held);
/* Takes the marks of slp_hold_reverse off, and every tag. */
void slp_release_reverse(LLVMModuleRef m, ValueList *held);

#endif
