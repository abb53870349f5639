/* User-registered derivatives: the way to differentiate through a function whose body Parad cannot
 * see (or should not differentiate).
 *
 *   void *__parad_register_gradient_f[3] = {(void *)f, (void *)f_augment, (void *)f_gradient};
 * (or Enzyme's __enzyme_register_gradient_f). For R f(p1, ..., pn):
 *   f_augment(args)           args: f's arguments, each pointer followed by its shadow (NULL when it has
 *                             none). Returns f's result; or, to keep data for the gradient, a struct
 *                             {result, void *tape} (just the void * tape when f returns void).
 *   f_gradient(args, [dr], [tape])   the same arguments, then the adjoint of f's result when it is a
 *                             float, then the tape if f_augment returned one. Adds the adjoints of memory
 *                             into the shadows; returns the adjoints of f's floating-point parameters in
 *                             order (a double for one, a struct for several, void for none). */
#ifndef PARAD_AD_CUSTOM_H
#define PARAD_AD_CUSTOM_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* In ad_prepare: finds the registrations and marks each function (it must not be inlined away before
 * its calls are differentiated). Returns the number of errors. */
int custom_register_all(LLVMModuleRef m);
/* The registered pair of fn, if any. */
bool custom_lookup(LLVMValueRef fn, LLVMValueRef *augment, LLVMValueRef *gradient);

#endif
