/* The keys of routines' memo caches, made NaN at each derivative's entry.
 *
 * A routine that keeps its result for the last input it was given (`if (b != last) { w = sin(b); last =
 * b; } return w;`) would hand a derivative taken at the point of the program's previous call the cached
 * value, whose shadow is zero: the derivative for that input silently 0, as in every AD tool. Such a
 * key, a float that the functions derivatives run only compare for equality and only set to the number
 * compared (or to a constant, a reset), is made NaN at each derivative's entry: every comparison then
 * finds a new point, the derivative recomputes what the cache holds and leaves the key as the program's
 * call would. A key is a whole global or a float at a fixed place in one (a field of a struct, an element
 * of an array: f2c's COMMON blocks, `struct { double wts[8], xs[8], alast; } wcom_;`), where every other
 * access the derivatives make to the global lies apart from it. */
#ifndef PARAD_AD_CACHE_KEYS_H
#define PARAD_AD_CACHE_KEYS_H

#include <stdbool.h>

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* Appends to `at` the address of each key in m's globals (a constant) and to `nans` the NaN of its type;
 * `runs(fn)` says whether derivatives run fn (uses elsewhere are the program's own). */
void cache_keys_find(LLVMModuleRef m, bool (*runs)(LLVMValueRef fn), ValueList *at, ValueList *nans);

#endif
