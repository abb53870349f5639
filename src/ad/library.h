/* Derivatives of C library functions that Parad's runtime provides (runtime/sort.c), registered as a
 * program registers its own (ad/custom.h) wherever the program calls such a function and registers no
 * derivative of its own for it:
 *   qsort   the sort permutes the array's elements; its derivatives permute their tangents or adjoints
 *           the same way (a comparison's outcome has no derivative).
 *   qsort_r the same, with the comparator's context (GNU's argument order: base, n, size, cmp, arg).
 * Vector forward mode calls a registered derivative once per direction; the first direction's call of
 * qsort's sorts the values, so the others call a function of their own that moves their tangents the
 * way the first call did (library_next_direction).
 *   __parad_rt_byte_copy, __parad_rt_byte_swap   byte loops whose blocks overlap (ad/byte_loops.h):
 *           forward mode moves the tangents' bytes the same way; reverse mode stops with a message. */
#ifndef PARAD_AD_LIBRARY_H
#define PARAD_AD_LIBRARY_H

#include <llvm-c/Core.h>


/* In ad_prepare, before custom_register_all reads the registrations. */
void library_register_all(LLVMModuleRef m);
/* The runtime function `name` of the table (a byte loop's: ad/byte_loops.h), of this type, declared in m
 * with its derivatives registered; after ad_prepare. */
LLVMValueRef library_function(LLVMModuleRef m, const char *name, LLVMTypeRef type);
/* Reverse mode's forward sweep leaves floats' adjoints where they are (an output's seeds may be there
 * already), so the augmented sort does not move the shadow, and the shadows of pointers in the elements
 * would not follow their pointers: the argument of the augmented function `augment` whose elements may
 * hold floats and integers only, or -1; and what the elements of `array` are (a data kind's name) where
 * they may hold pointers, or cannot be told, else NULL. */
int library_floats_only_argument(LLVMValueRef augment);
const char *library_pointers_held(LLVMValueRef array);
/* What vector forward mode calls for the directions after the first in place of the registered
 * derivative df: df itself, or the runtime's function for them. */
LLVMValueRef library_next_direction(LLVMValueRef df);
/* The C library function ("qsort") whose derivative the runtime function runtime_name is, or NULL. */
const char *library_function_of(const char *runtime_name);

#endif
