/* Memory a call never writes. A load from it can be repeated in the reverse sweep instead of recorded,
 * when nothing runs between the sweeps (a gradient's own call) or when the caller knows the same.
 *
 * C's `const` promises nothing (another pointer may write the same memory); `restrict` does: a noalias
 * parameter's memory, if anything writes it during the call, is reached only through pointers made from
 * the parameter. So a noalias parameter none of whose derived pointers is written through, freed, or
 * kept where the analysis loses it (in this function, its callees and its parallel regions) points to
 * memory that holds the same values for the whole call. */
#ifndef PARAD_ANALYSIS_UNWRITTEN_H
#define PARAD_ANALYSIS_UNWRITTEN_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "analysis/dependence.h"

/* Bit i: parameter i of fn is such a pointer (parameters 0 to 63). */
unsigned long long unwritten_params(LLVMValueRef fn);

/* Whether nothing writes the memory of param (a noalias parameter) from instruction `from` of its function
 * on, `from` included, to the function's return: a load there, or an argument of a call there, reads what
 * the memory holds when the function returns. With dep (the function's, see dependence.h) and a load
 * `from`, a store of the function that never overwrites what the load read does not count. */
bool unwritten_after(LLVMValueRef param, LLVMValueRef from, Dependence *dep);

/* The same for a global variable defined in the module, written by any function: whether nothing writes it
 * from `from` on to the return of from's function, in that function or in any it may call from there
 * (a lazily initialised table, written once before its reads). */
bool unwritten_global_after(LLVMValueRef global, LLVMValueRef from, Dependence *dep);
/* Around the generation of derivatives: the program's functions, whose uses of a global are the ones
 * unwritten_global_after weighs (the derivatives' repeat them). */
void unwritten_program_begin(LLVMModuleRef m);
void unwritten_program_end(void);

/* The value a stack slot holds if it is stored exactly once and otherwise only read (by loads, by calls
 * whose parameter is readonly and nocapture, by parallel regions that only read it), else NULL: at -O2
 * a variable shared with a parallel region is such a slot. */
LLVMValueRef unwritten_slot_value(LLVMValueRef slot);

#endif
