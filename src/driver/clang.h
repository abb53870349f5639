/* The two clang steps around Parad's part: the front end (C to IR) and code generation (IR to an object,
 * assembly or IR). */
#ifndef PARAD_DRIVER_CLANG_H
#define PARAD_DRIVER_CLANG_H

#include <stdbool.h>

#include "driver/args.h"

/* How the front end runs: as the user's compiler (its messages shown), or again after such a run (its
 * warnings already shown: silenced); with line tables (for diagnostics) or without (the object of a file
 * without derivatives is the one clang makes). */
typedef enum { FRONTEND_FIRST, FRONTEND_FIRST_WITH_LINES, FRONTEND_AGAIN, FRONTEND_AGAIN_WITH_LINES } FrontendRun;

/* The front end: source to unoptimised bitcode with the user's flags (and parad.h reachable). dep_target:
 * the output a dependency file (-MD) names, or NULL. */
int clang_frontend(const StrList *flags, const char *source, const char *language, const char *bc, const char *dep_target,
                   FrontendRun run, bool verbose);
/* Code generation: mode "-c" or "-S" (with emit_llvm: IR out). When Parad optimised the IR, clang only
 * generates code; otherwise clang runs its own pipeline, as for any program. codegen_o2: code generated as
 * at -O2 whatever the flags say (-O0 programs whose derivatives were optimised: their own functions,
 * optnone, are still generated as at -O0). */
int clang_codegen(const StrList *flags, const char *mode, bool emit_llvm, const char *ir, const char *out, bool optimised,
                  bool codegen_o2, bool verbose);

#endif
