/* Calls through function pointers in differentiated code.
 *
 * A function is not data: a function pointer's shadow is the pointer itself (ad/constants.h), and a
 * call through one with active arguments asks the runtime (runtime/indirect.c) for the derivative of
 * whatever it points to, for the call's activity pattern, written as a key ("fwd|dcd|1|1",
 * "rev|dco|100": see the generators). For every function of the module that such a pointer may hold (its
 * address is taken, its type is the call's), the generator tries the derivative for that key; the
 * module registers them from a constructor. A derivative that cannot be made is not an error of the
 * compilation (the pointer may never lead there): the runtime reports it, with the generator's words,
 * if a call ever does. */
#ifndef PARAD_AD_INDIRECT_H
#define PARAD_AD_INDIRECT_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ad/ad.h"
#include "ir/ir.h"

/* The functions of the module a pointer of type fty may hold: its functions whose address is taken (not
 * merely called), and library functions with a derivative rule whose address is. indirect_candidates
 * leaves out the derivatives Parad generated; indirect_module_candidates works on any module (fty NULL:
 * of every type). */
void indirect_candidates(AdModule *ad, LLVMTypeRef fty, ValueList *out);
/* The functions a call may reach: the one it calls, or, through a pointer, the candidates of its type. */
void indirect_callees(AdModule *ad, LLVMValueRef call, ValueList *out);
void indirect_module_candidates(LLVMModuleRef m, LLVMTypeRef fty, ValueList *out);

/* Makes the derivative of fn for one key: out[0] (the tangent or augmented function) and out[1] (the
 * reverse function, or NULL); false when it cannot. */
typedef bool (*IndirectGenerate)(AdModule *ad, LLVMValueRef fn, void *ctx, LLVMValueRef out[2]);

/* Tries the derivative for key of every function of the module a pointer of type fty may hold, and
 * enters them in the module's table (once per type and key). Returns the key as a constant string for
 * indirect_lookup. */
LLVMValueRef indirect_register(AdModule *ad, LLVMTypeRef fty, const char *key, IndirectGenerate generate, void *ctx);

/* Emits the lookup of the derivative (which: 0 or 1, as out[] above) of the function fnptr points to: the
 * module's own candidates compared first, the runtime asked for others. */
LLVMValueRef indirect_lookup(AdModule *ad, LLVMBuilderRef b, LLVMValueRef fnptr, LLVMValueRef key, int which);

/* At the end of ad_generate: the module's table, and the constructor that hands it to the runtime. */
void indirect_emit_table(AdModule *ad);

#endif
