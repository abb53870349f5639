/* User-registered derivatives: the way to differentiate through a function whose body Parad cannot
 * see (or should not differentiate). Registrations are global arrays whose name contains the spelling
 * (as Enzyme reads them, so that C++'s mangled static members count too).
 *
 * Reverse mode:
 *   void *__parad_register_gradient_f[3] = {(void *)f, (void *)f_augment, (void *)f_gradient};
 * (or Enzyme's __enzyme_register_gradient_f). For R f(p1, ..., pn):
 *   f_augment(args)           args: f's arguments, each pointer followed by its shadow (NULL when it has
 *                             none). Returns f's result; or, to keep data for the gradient, a struct
 *                             {result, void *tape} (just the void * tape when f returns void); or
 *                             nothing (void): then f itself is called for its result where it is used.
 *   f_gradient(args, [dr], [tape])   the same arguments, then the adjoint of f's result when it holds
 *                             floats (a struct returned in registers: as a struct by value, which C
 *                             passes as its parts), then the tape if f_augment returned one. A struct f
 *                             returns through memory (over 16 bytes) is refused. Adds the adjoints of memory
 *                             into the shadows; returns the adjoints of f's floating-point parameters in
 *                             order (a double for one, a struct for several, void for none).
 *
 * Forward mode:
 *   void *__enzyme_register_derivative_f[2] = {(void *)f, (void *)df};   (or __parad_register_derivative_f)
 *   df(args)   f's arguments, each float and pointer followed by its tangent or shadow (0 or NULL where
 *              it has none), or, Enzyme's full form, every argument followed by one (an integer by
 *              itself). Returns the tangent of f's result, or a struct {result, tangent} (void for a void
 *              f). As in Enzyme, df replaces the call: it does f's work too (writes f's outputs); only
 *              where it returns the tangent alone and f's result is used is f called as well. In vector
 *              mode df is called once per direction.
 *
 * Split forward mode (Enzyme's __enzyme_fwdsplit, which Parad runs as forward mode again, split_forward.c):
 *   void *__enzyme_register_splitderivative_f[3] = {(void *)f, (void *)f_augment, (void *)f_split};
 *   is accepted and checked, and named where a forward derivative of f is missing. */
#ifndef PARAD_AD_CUSTOM_H
#define PARAD_AD_CUSTOM_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* In ad_prepare: finds the registrations and marks each function (it must not be inlined away before
 * its calls are differentiated). Returns the number of errors. */
int custom_register_all(LLVMModuleRef m);
/* Registers derivatives of fn, as a global whose name contains `spelling` would (Parad's own
 * registrations: ad/library.h): derivatives[0] (and [1] for a gradient's pair). */
void custom_register(LLVMModuleRef m, const char *spelling, LLVMValueRef fn, LLVMValueRef *derivatives);
/* The registered pair of fn, if any. */
bool custom_lookup(LLVMValueRef fn, LLVMValueRef *augment, LLVMValueRef *gradient);
/* fn's registered forward derivative, or NULL. */
LLVMValueRef custom_derivative(LLVMValueRef fn);
/* Whether fn has a split forward-mode derivative registered (which Parad does not use). */
bool custom_has_split_derivative(LLVMValueRef fn);
/* Whether fn has any registered derivative that makes its calls differentiable without its body. */
bool custom_registered(LLVMValueRef fn);

/* A parameter attribute of a function with a registered derivative: neither the derivative nor the
 * function's own body differentiated needs the shadow of that pointer, so a call need not have one (a
 * checkpointed loop's variable holding an index array, or an argument every request passes constant). */
#define CUSTOM_NO_SHADOW "parad-custom-no-shadow"
bool custom_param_needs_no_shadow(LLVMValueRef fn, unsigned param);

/* A function of fn's type that only calls fn: a request naming fn differentiates through it, so that fn's
 * registered derivative applies there too (as in Enzyme). */
LLVMValueRef custom_caller(LLVMValueRef fn);

/* Keeps the calls of fn as calls until derivatives are generated (noinline; always_inline dropped, the
 * two cannot go together), and fns alive though only a registration refers to them. */
void custom_keep_calls(LLVMValueRef fn);
void custom_keep_alive(LLVMModuleRef m, LLVMValueRef *fns, unsigned n);
/* The contrary: fns no longer kept (their function is gone); the optimiser may delete them. */
void custom_let_go(LLVMModuleRef m, LLVMValueRef *fns, unsigned n);

#endif
