/* Instrumentation clang adds in its own pipeline, which code generation from Parad's IR does not run:
 * -fprofile-instr-generate's counters and gcov's (--coverage) first, the sanitizers' (-fsanitize=address,
 * thread, memory) last. A file that asked for a derivative, and the program's object made at the link,
 * were not instrumented at all: the back end stopped at the profile counters' intrinsics, an overflow went
 * unreported under AddressSanitizer, no coverage counts were written. The pipeline runs these passes where
 * the front end asked for them, and the derivatives Parad makes are checked by AddressSanitizer as the
 * functions they come from are. */
#ifndef PARAD_DRIVER_INSTRUMENTATION_H
#define PARAD_DRIVER_INSTRUMENTATION_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

/* The passes to run before anything else (into buf); false where none. */
bool instrumentation_first(LLVMModuleRef m, char *buf, size_t size);
/* Before the derivatives are made: notes the functions the user kept out of AddressSanitizer. */
void instrumentation_note_exempt(LLVMModuleRef m);
/* After the optimiser: marks the functions Parad made for AddressSanitizer where the file was compiled with
 * it, and gives the sanitizers' passes (into buf); false where none. */
bool instrumentation_last(LLVMModuleRef m, char *buf, size_t size);

#endif
