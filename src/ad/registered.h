/* What a program tells Parad about its own functions and globals, besides custom derivatives (custom.h),
 * in Enzyme's spellings. Registration globals (their names contain the spelling, as Enzyme reads them):
 *   void *__enzyme_inactivefn[] = {(void *)f, ...};            f carries no derivative (its calls are
 *                                                                copied as they are)
 *   void *__enzyme_inactive_global = (void *)&g;  (or an array of such addresses)
 *                                                                g has no derivative: what is stored into it
 *                                                                loses its derivative, what is loaded is
 *                                                                constant
 *   void *__enzyme_function_like[2] = {(void *)f, (void *)"log"};
 *                                                                f is differentiated as the named function
 *                                                                (a math function of the rule table, or
 *                                                                malloc, calloc, realloc, free)
 *   void *__enzyme_allocation_like[4] = {(void *)alloc, (void *)size_index, (void *)"-1", (void *)dealloc};
 *                                                                alloc returns a fresh block of the size its
 *                                                                argument size_index gives, in bytes: it
 *                                                                gets a shadow block like malloc's; dealloc
 *                                                                frees one: its parameters are listed in the
 *                                                                string (-1: the block, k: alloc's argument
 *                                                                k), and the shadow of the block it is given
 *                                                                is freed with it
 * and the same as attributes, which parad-cc turns into annotations (clang drops attributes it does not
 * know; see the driver, clang.c): __attribute__((enzyme_inactive)) on a function or a global,
 * enzyme_function_like("log"), enzyme_allocator(size_index), enzyme_deallocator(pointer_index). */
#ifndef PARAD_AD_REGISTERED_H
#define PARAD_AD_REGISTERED_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* In ad_prepare: reads the registrations and annotations and records them on the functions and globals
 * (whose calls stay calls until derivatives are generated). Returns the number of errors. */
int registered_read_all(LLVMModuleRef m);

bool registered_inactive_function(LLVMValueRef fn);
/* The function fn is to be differentiated as, or NULL. */
const char *registered_function_like(LLVMValueRef fn);
/* Whether fn allocates like malloc; *size_arg: its argument that holds the size in bytes. */
bool registered_allocator(LLVMValueRef fn, unsigned *size_arg);
/* Whether fn frees like free; *ptr_arg: its argument that is the block. */
bool registered_deallocator(LLVMValueRef fn, unsigned *ptr_arg);
/* Whether a pointer points into a global registered as inactive. */
bool registered_inactive_memory(LLVMValueRef p);

/* Around the optimisation before derivatives are generated: the functions whose calls carry a registered
 * meaning (inactive, function-like, allocators, custom derivatives) made opaque to it (optnone), so that it
 * infers nothing from their bodies that would let it drop their calls: a function returning its argument
 * (`double stop(double x) { return x; }`, an identity with a custom gradient) gets `returned`, and the
 * call's result is replaced by the argument, whose derivative then flows through. Returns how many;
 * release puts the functions back as they were. */
unsigned registered_hold_opaque(LLVMModuleRef m);
void registered_release_opaque(LLVMModuleRef m);

#endif
