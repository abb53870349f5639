/* Enzyme's attributes on a program's functions and globals (__attribute__((enzyme_inactive)), ...), which
 * Enzyme's clang plugin reads. Plain clang does not know them and drops them with a warning, so:
 *   - the spellings Parad honours are defined as macros for clang's annotate attribute, which reaches the
 *     IR (llvm.global.annotations, read by ad/registered.c), on every front end parad-cc runs: a program
 *     needs no header for them;
 *   - any other attribute of Enzyme's that clang dropped (another name, the [[enzyme::...]] spelling) is
 *     an error at its file:line, found in the front end's warnings, rather than a derivative that
 *     silently differs from Enzyme's. Enzyme's hints that change no value (enzyme_nofree, ...) pass. */
#ifndef PARAD_DRIVER_ATTRIBUTES_H
#define PARAD_DRIVER_ATTRIBUTES_H

#include "driver/args.h"

/* Adds the macro definitions to a front-end command line. */
void attributes_define(StrList *cmd);
/* Reads the front end's messages (already printed) for attributes of Enzyme's that clang dropped; reports
 * each and returns how many. */
int attributes_check(const char *messages);

#endif
