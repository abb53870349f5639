/* Derivatives with respect to memory the function also reads by name.
 *
 * `__parad_autodiff(f, W, dW)` where W is a global array that f reads through its parameter and by its
 * name: the derivative follows the parameter's reads into dW, and the reads by name carry the global's
 * own derivative (none, for a global the program never writes with active values: a constant). The
 * gradient then lacked those reads' part, in both modes, with no message (a user-style probe: {2, 0}
 * where {2, 1.5} was right). Enzyme treats such a global as constant too. Parad says so: where the
 * argument is the global's address (or an offset into it) at compile time, with a diagnostic at the
 * request; otherwise, before the derivative runs, by comparing the argument with the globals the code
 * reads by name, and stopping the program with the same words where it points into one. So too where it
 * points into the heap block a pointer global holds (which the code reads through the global), or into
 * what a pointer that block holds points to (`M->p`), or a pointer in another global holding pointers does
 * (a table of terms, `terms[k].p`, read at a variable index); and for the pointers a struct argument holds
 * on entry (`m->c`). Alike for the arguments passed constant: one holding a pointer into the memory an
 * argument with a shadow points to (`pb->params`) is read without derivatives. */
#ifndef PARAD_AD_GLOBAL_ARGUMENTS_H
#define PARAD_AD_GLOBAL_ARGUMENTS_H

#include <llvm-c/Core.h>

#include "ad/request.h"

/* Emits, at b (before r's derivative call), the checks of r's pointer arguments with shadows (and of the
 * pointers they hold) against the globals of floats the functions r reaches read by name, the blocks of
 * their pointer globals and the other globals holding pointers, and of its constant arguments against
 * those with shadows; returns the number of errors reported. */
int request_check_global_arguments(LLVMBuilderRef b, const Request *r);

/* Completes the checks once every derivative of the module is made. */
void global_arguments_finish(LLVMModuleRef m);

#endif
